import { afterEach, describe, expect, it } from 'vitest';
import type { LiveFinding } from '../conformance/rules/session/live-finding.js';
import { startProxy, type RunningProxy } from '../conformance/proxy/proxy-server.js';
import { VARIANT_NAMES } from '../src/core/variant-choice.js';
import { describeFindings, runLiveSession } from './support/live-session.js';
import { GAME_ORIGIN, type MutatingProxy, type ProxyBehaviour, startMutatingProxy } from './support/mutating-proxy.js';
import { VARIATIONS } from './support/variations.js';

/**
 * `game-service proxy` judging live traffic: a client session through the proxy in front of the mock (and of the
 * suite's mutating proxy, which makes one legal choice) must show exactly the departures there are: none from a
 * legal server, and the client's own as the client's. The broken rule from a broken server: same-verdict.test.ts,
 * on the session it records through each.
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
