import { exchangeRecord } from '../target/exchange.js';
import { xml } from '../report/run-report.js';
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
  const seconds = ((session.endedAt - session.startedAt) / 1000).toFixed(3);
  const suites = (['server', 'client'] as const).map((side) => {
    const rules = JUDGED_RULES.filter((judged) => judged.side === side);
    const cases = rules.map(({ rule }) => {
      const findings = log.findings.filter((finding) => finding.side === side && finding.rule === rule);
      const counted = log.byRule().find((each) => each.side === side && each.rule === rule)?.count ?? 0;
      const open = `    <testcase classname="${xml(`${PROXY_NAME}.${side}`)}" name="${xml(`${rule} «${ruleQuote(rule)}»`)}"`;
      if (counted === 0) return `${open}/>`;
      const failures = findings
        .slice(0, 10)
        .map((finding) => `${finding.exchange.method} ${finding.exchange.url} → ${finding.exchange.status}: ${finding.message}`)
        .join('\n');
      return `${open}>\n      <failure message="${xml(`${counted} finding(s); first: ${findings[0]?.message ?? ''}`)}" type="${rule}">${xml(failures)}</failure>\n    </testcase>`;
    });
    const failed = rules.filter(({ rule }) => log.byRule().some((each) => each.side === side && each.rule === rule)).length;
    return [
      `  <testsuite name="${xml(`${PROXY_NAME}: ${side}`)}" tests="${rules.length}" failures="${failed}" errors="0" skipped="0" time="${seconds}">`,
      `    <properties><property name="target" value="${xml(session.target)}"/><property name="exchanges" value="${log.exchangeCount}"/></properties>`,
      ...cases,
      '  </testsuite>',
    ].join('\n');
  });
  const failures = log.byRule().length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${PROXY_NAME}" tests="${JUDGED_RULES.length}" failures="${failures}" errors="0" skipped="0" time="${seconds}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
