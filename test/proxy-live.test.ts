import { afterEach, describe, expect, it } from 'vitest';
import type { LiveFinding } from '../conformance/live/live-finding.js';
import type { RuleId } from '../conformance/rules/index.js';
import { startProxy, type RunningProxy } from '../conformance/proxy/proxy-server.js';
import { VARIANT_NAMES } from '../src/core/variant-choice.js';
import { NOT_SEEN_LIVE, runLiveSession } from './support/live-session.js';
import { GAME_ORIGIN, type MutatingProxy, type ProxyBehaviour, startMutatingProxy } from './support/mutating-proxy.js';
import { MUTATIONS } from './support/mutations.js';
import { VARIATIONS } from './support/variations.js';

/**
 * `game-service proxy` judging live traffic: a client session through the proxy in front of the mock (and of the
 * suite's mutating proxy, which breaks one rule or makes one legal choice) must show exactly the departures there
 * are: none from a legal server, the broken rule from a broken one, and the client's own as the client's.
 */

const open: (RunningProxy | MutatingProxy)[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((each) => each.close()));
});

async function session(behaviour: ProxyBehaviour, departures = false): Promise<LiveFinding[]> {
  const upstream = await startMutatingProxy(behaviour);
  open.push(upstream);
  const clientIpHeader = behaviour.target?.clientIpHeader ?? 'x-forwarded-for';
  const proxy = await startProxy({ target: new URL(upstream.url), port: 0, host: '127.0.0.1', gameOrigins: [GAME_ORIGIN], clientIpHeader });
  open.push(proxy);
  await runLiveSession({ baseUrl: proxy.url, gameOrigin: GAME_ORIGIN, clientIpHeader, departures });
  return proxy.log.findings;
}

const describeFindings = (findings: readonly LiveFinding[]) =>
  findings
    .map((finding) => `${finding.side} ${finding.rule}: ${finding.message} (${finding.exchange.method} ${finding.exchange.url} → ${finding.exchange.status})`)
    .join('\n');

/** Where the proxy's judge names a broken rule otherwise than the suite's check does (the fuzzer's names, fuzz.test.ts). */
const LIVE_RULES: Readonly<Record<string, readonly RuleId[]>> = {
  '429-one-request-early': ['RL-WINDOW'],
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

describe('the proxy in front of a legal server reports nothing', () => {
  it.each(VARIATIONS.map((variation) => [variation.name, variation] as const))('%s', async (_name, variation) => {
    const findings = await session(variation);
    expect(findings, describeFindings(findings)).toEqual([]);
  });

  it.each(VARIANT_NAMES)('--variant %s', async (variant) => {
    const findings = await session({ name: variant, does: `the mock's variant ${variant}`, upstream: { variants: [variant] } });
    expect(findings, describeFindings(findings)).toEqual([]);
  });
});

describe('the proxy names the client as the one departing', () => {
  it('reports a misnamed field, a missing one, a body without its Content-Type, a read without a token, a retry before Retry-After and gameplay during an encounter, on the client', async () => {
    const findings = await session({ name: 'unaltered', does: 'forwards everything unchanged' }, true);
    expect(
      findings.filter((finding) => finding.side === 'server'),
      describeFindings(findings),
    ).toEqual([]);
    const messages = (rule: string) => findings.filter((finding) => finding.rule === rule).map((finding) => finding.message);
    expect(messages('CLIENT-REGISTER-FIELDS')).toContainEqual(expect.stringMatching(/turnstileToken, which the spec does not name/));
    expect(messages('CLIENT-REGISTER-FIELDS')).toContain('email is missing');
    expect(messages('CLIENT-VERIFY-FIELDS')).toContain('otp is missing');
    expect(messages('CLIENT-VERIFY-FIELDS')).toContain('otp is a number, not a string');
    expect(messages('CLIENT-BODY-JSON')).toEqual(['the body is not JSON']);
    expect(messages('CLIENT-CONTENT-TYPE')).toEqual(['Content-Type text/plain']);
    expect(messages('CLIENT-BEARER')).toEqual(['no Authorization header', 'no Authorization header']);
    expect(messages('CLIENT-RETRY-AFTER')).toEqual([expect.stringMatching(/before the Retry-After of the last 429 of its bucket had passed/)]);
    expect(messages('CLIENT-ENCOUNTER')).toEqual([expect.stringMatching(/while the fighter encounter of the last 409 was still open/)]);
    const byRule = new Set(findings.map((finding) => finding.rule));
    expect([...byRule].sort()).toEqual([
      'CLIENT-BEARER',
      'CLIENT-BODY-JSON',
      'CLIENT-CONTENT-TYPE',
      'CLIENT-ENCOUNTER',
      'CLIENT-REGISTER-FIELDS',
      'CLIENT-RETRY-AFTER',
      'CLIENT-VERIFY-FIELDS',
    ]);
  });
});

describe('the proxy in front of a broken server reports the broken rule, on the server', () => {
  const judged = MUTATIONS.filter((mutation) => !(mutation.name in NOT_SEEN_LIVE));
  it.each(judged.map((mutation) => [mutation.name, mutation] as const))('%s', async (_name, mutation) => {
    const findings = await session(mutation, true);
    const expected = LIVE_RULES[mutation.name] ?? [mutation.breaks];
    const rules = new Set(findings.filter((finding) => finding.side === 'server').map((finding) => finding.rule));
    expect(
      expected.some((rule) => rules.has(rule)),
      `expected a server finding on ${expected.join(' or ')}; got:\n${describeFindings(findings)}`,
    ).toBe(true);
  });
});
