import { describe, expect, it } from 'vitest';
import type { Exchange } from '../conformance/common/exchange.js';
import type { LiveFinding } from '../conformance/rules/session/live-finding.js';
import { LiveJudge } from '../conformance/rules/session/live-judge.js';
import { answeredAt } from '../conformance/rules/model/server-time.js';
import { startProxy, type RunningProxy } from '../conformance/proxy/proxy-server.js';
import { departures, FUZZ_RULES, judgeExchange, type Knowledge, type RuleId, RULES } from '../conformance/rules/index.js';
import { type InvariantId, TrafficInvariants } from '../conformance/rules/traffic.js';
import { limiter } from './support/limiter.js';
import { describeFindings, NOT_SEEN_LIVE, runLiveSession } from './support/live-session.js';
import { GAME_ORIGIN, type MutatingProxy, startMutatingProxy } from './support/mutating-proxy.js';
import { MUTATIONS } from './support/mutations.js';

/**
 * One rule, one verdict: the exchanges of a client session through each broken server, recorded by the proxy, are
 * fed one by one to the three judges (the check's judging of a run's traffic, the fuzzer's, the proxy's), which
 * must name the same rules on each. The fuzzer judges only the rules it reports; the proxy judges more over a
 * session (its rate-limit model, codes and tokens), so each exchange goes to a judge that has seen nothing before.
 * The same session, as `game-service proxy` judged it live, must name the broken rule on the server.
 */

/** Sessions at once: each mostly waits on its servers. */
const inSlot = limiter(2);
/** A test waits for a free slot, then records a session of a few seconds. */
const SESSION_TIMEOUT_MS = 180_000;

/** The rules judged on single exchanges, beside which no judge of the three keeps a model or a memory of its own. */
const SINGLE_EXCHANGE_RULES = new Set<string>(
  RULES.filter(
    (rule) => rule.judge !== undefined && rule.side === 'server' && rule.session === undefined && !('fuzz' in rule && rule.id.startsWith('RL-')),
  ).map((rule) => rule.id),
);
const FUZZED = new Set<string>(FUZZ_RULES.map((rule) => rule.id));

/** A session through a broken server: the exchanges the proxy kept, and what it found as they passed. */
interface Recording {
  exchanges: Exchange[];
  findings: LiveFinding[];
}

async function record(mutation: (typeof MUTATIONS)[number]): Promise<Recording> {
  const open: (RunningProxy | MutatingProxy)[] = [];
  try {
    return await recordThrough(mutation, open);
  } finally {
    await Promise.all(open.map((each) => each.close()));
  }
}

/** Each mutation's session, recorded once for both tests of it. */
const recordings = new Map<string, Promise<Recording>>();
const recording = (mutation: (typeof MUTATIONS)[number]) => {
  if (!recordings.has(mutation.name))
    recordings.set(
      mutation.name,
      inSlot(() => record(mutation)),
    );
  return recordings.get(mutation.name)!;
};

async function recordThrough(mutation: (typeof MUTATIONS)[number], open: (RunningProxy | MutatingProxy)[]): Promise<Recording> {
  const upstream = await startMutatingProxy(mutation);
  open.push(upstream);
  const clientIpHeader = mutation.target?.clientIpHeader ?? 'x-forwarded-for';
  const proxy = await startProxy({
    target: new URL(upstream.url),
    port: 0,
    host: '127.0.0.1',
    gameOrigins: [GAME_ORIGIN],
    clientIpHeader,
    keepApiExchanges: true,
  });
  open.push(proxy);
  const stopped = await runLiveSession({ baseUrl: proxy.url, gameOrigin: GAME_ORIGIN, clientIpHeader, departures: true }).then(
    () => undefined,
    (error: unknown) => error,
  );
  const recorded = { exchanges: proxy.apiExchanges, findings: proxy.log.findings };
  // A server that breaks the client's own reading stops the session early: what passed is judged, where the proxy saw the server depart.
  if (stopped !== undefined && !recorded.findings.some((finding) => finding.side === 'server')) throw stopped;
  return recorded;
}

function knowledgeOf(exchange: Exchange): Knowledge {
  return { path: new URL(exchange.url).pathname, external: exchange.requestHeaders['origin'] !== GAME_ORIGIN, serverTime: answeredAt(exchange) };
}

/** The rules `check` finds broken in the exchange, as its run's traffic records them. */
function checkRules(exchange: Exchange, knowledge: Knowledge): string[] {
  const traffic = new TrafficInvariants();
  traffic.record(knowledge.path, exchange, knowledge.external);
  const judged = judgeExchange(exchange, knowledge).filter((verdict) => verdict.side === 'server');
  return judged.filter((verdict) => traffic.report(verdict.rule as RuleId, verdict.aspect as InvariantId).breaches > 0).map((verdict) => verdict.rule);
}

function liveRules(exchange: Exchange, knowledge: Knowledge): string[] {
  const judge = new LiveJudge([GAME_ORIGIN]);
  const pending = judge.begin({
    method: exchange.method,
    path: knowledge.path,
    headers: exchange.requestHeaders,
    clientIp: '198.51.100.1',
    receivedAt: exchange.sentAt,
  });
  return judge
    .end(pending, exchange)
    .filter((finding) => finding.side === 'server')
    .map((finding) => finding.rule);
}

const sorted = (rules: readonly string[], among: ReadonlySet<string>) => [...new Set(rules.filter((rule) => among.has(rule)))].sort();

describe('check, fuzz and the proxy give one exchange the same verdict', () => {
  it.concurrent.each(MUTATIONS.map((mutation) => [mutation.name, mutation] as const))(
    '%s',
    async (_name, mutation) => {
      const { exchanges } = await recording(mutation);
      const found = new Set<string>();
      const disagreements = exchanges.flatMap((exchange) => {
        const knowledge = knowledgeOf(exchange);
        const check = checkRules(exchange, knowledge);
        const fuzz = departures(exchange, knowledge, FUZZ_RULES).map((verdict) => verdict.rule);
        const live = liveRules(exchange, knowledge);
        const checked = sorted(check, SINGLE_EXCHANGE_RULES);
        for (const rule of check) found.add(rule);
        const verdicts = { check: checked, fuzz: sorted(fuzz, FUZZED), proxy: sorted(live, SINGLE_EXCHANGE_RULES), checkFuzzed: sorted(check, FUZZED) };
        const agree = verdicts.check.join() === verdicts.proxy.join() && verdicts.checkFuzzed.join() === verdicts.fuzz.join();
        return agree ? [] : [`${exchange.method} ${exchange.url} → ${exchange.status}: ${JSON.stringify(verdicts)}`];
      });
      expect(disagreements).toEqual([]);
      // Not agreement on nothing: a rule judged on single exchanges that the server breaks is named.
      if (SINGLE_EXCHANGE_RULES.has(mutation.breaks) && !(mutation.name in NOT_SEEN_LIVE)) expect([...found]).toContain(mutation.breaks);
    },
    SESSION_TIMEOUT_MS,
  );
});

/** Where the proxy's judge names a broken rule otherwise than the suite's check does (the fuzzer's names, fuzz.test.ts). */
const LIVE_RULES: Readonly<Record<string, readonly RuleId[]>> = {
  '429-one-request-early': ['RL-WINDOW'],
  'auth-window-two-minutes': ['RL-RESET', 'RL-WINDOW'],
  'auth-bucket-per-network': ['RL-REMAINING', 'RL-AUTH-IP', 'RL-WINDOW'],
  'read-window-sliding-estimate': ['RL-REMAINING', 'RL-WINDOW'],
  'shared-read-bucket': ['RL-REMAINING'],
  'read-bucket-per-token': ['RL-REMAINING'],
  'read-bucket-per-player-and-address': ['RL-REMAINING'],
  'reads-spend-public-bucket': ['RL-REMAINING'],
  'game-origin-by-prefix': ['RL-EXEMPT', 'RL-LIMIT', 'RL-REMAINING', 'RL-RESET', 'RL-WINDOW'],
  'game-origin-counted': ['RL-EXEMPT'],
  'window-never-resets': ['RL-WINDOW', 'RL-REMAINING', 'RL-RESET', 'RL-429'],
  'public-bucket-never-refuses': ['RL-WINDOW'],
  'gameplay-bucket-never-refuses': ['RL-WINDOW'],
  'no-ratelimit-headers-on-refusals': ['RL-LIMIT', 'RL-REMAINING', 'RL-RESET'],
  'null-body-500': ['REG-MISSING', 'VERIFY-MISSING'],
  'unreadable-body-500': ['REG-MISSING', 'VERIFY-MISSING'],
  'non-string-email-500': ['REG-MISSING', 'VERIFY-MISSING'],
  'numeric-otp-500': ['VERIFY-MISSING'],
};

describe('the proxy in front of a broken server reports the broken rule, on the server', () => {
  const judged = MUTATIONS.filter((mutation) => !(mutation.name in NOT_SEEN_LIVE));
  it.concurrent.each(judged.map((mutation) => [mutation.name, mutation] as const))(
    '%s',
    async (_name, mutation) => {
      const { findings } = await recording(mutation);
      const expected = LIVE_RULES[mutation.name] ?? [mutation.breaks];
      const rules = new Set(findings.filter((finding) => finding.side === 'server').map((finding) => finding.rule));
      expect(
        expected.some((rule) => rules.has(rule)),
        `expected a server finding on ${expected.join(' or ')}; got:\n${describeFindings(findings)}`,
      ).toBe(true);
    },
    SESSION_TIMEOUT_MS,
  );
});
