import { exchangeRecord } from '../common/exchange.js';
import { type JunitTestcase, junitXml } from '../report/junit.js';
import { PROXY_RULES, ruleOf, ruleQuote } from '../rules/index.js';
import type { FindingsLog } from './findings-log.js';

export const PROXY_NAME = 'game-service proxy';

/** Every rule the proxy judges, by side: the registry's rules that say what the proxy judges of them. */
export const JUDGED_RULES = PROXY_RULES.map((each) => ({ rule: each.id, side: each.side }));

export interface ProxySession {
  target: string;
  startedAt: number;
  endedAt: number;
  exitCode: number;
}

/** `--json FILE`: the counts by rule and side, then every kept finding with its exchange (the bearer token masked). */
export function proxyJsonReport(log: FindingsLog, session: ProxySession): string {
  return `${JSON.stringify(
    {
      tool: PROXY_NAME,
      target: session.target,
      startedAt: new Date(session.startedAt).toISOString(),
      durationMs: session.endedAt - session.startedAt,
      exitCode: session.exitCode,
      exchanges: log.exchangeCount,
      findings: { client: log.count('client'), server: log.count('server') },
      unjudged: log.unjudged(),
      byRule: log.byRule(),
      kept: log.findings.map((finding) => ({
        rule: finding.rule,
        side: finding.side,
        sentence: finding.sentence,
        sentences: ruleOf(finding.rule).sentences,
        message: finding.message,
        exchange: exchangeRecord(finding.exchange),
      })),
    },
    null,
    2,
  )}\n`;
}

/** `--junit FILE`: a testsuite per side, a testcase per rule it judges, failed by its findings (the first ten written out). */
export function proxyJunitReport(log: FindingsLog, session: ProxySession): string {
  const durationMs = session.endedAt - session.startedAt;
  const suites = (['server', 'client'] as const).map((side) => {
    const rules = JUDGED_RULES.filter((judged) => judged.side === side);
    const cases = rules.map(({ rule }): JunitTestcase => {
      const findings = log.findings.filter((finding) => finding.side === side && finding.rule === rule);
      const counted = log.byRule().find((each) => each.side === side && each.rule === rule)?.count ?? 0;
      const name = `${rule} «${ruleQuote(rule)}»`;
      if (counted === 0) return { name };
      const text = findings
        .slice(0, 10)
        .map((finding) => `${finding.exchange.method} ${finding.exchange.url} → ${finding.exchange.status}: ${finding.message}`)
        .join('\n');
      return { name, failures: [{ message: `${counted} finding(s); first: ${findings[0]?.message ?? ''}`, type: rule, text }] };
    });
    return { area: side, failures: cases.filter((each) => each.failures !== undefined).length, durationMs, testcases: cases };
  });
  return junitXml(PROXY_NAME, { failures: log.byRule().length, durationMs }, { target: session.target, exchanges: log.exchangeCount }, suites);
}
