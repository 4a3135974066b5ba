import { afterEach, describe, expect, it, vi } from 'vitest';
import { HEADERS, RATE_LIMITS, RATE_LIMIT_WINDOW_MS } from '../../src/spec/limits.js';
import type { Exchange } from '../common/exchange.js';
import type { Identity } from '../target/identities.js';
import { RateLimitModel } from '../rules/model/rate-limit-model.js';
import { ServerClock } from '../rules/model/server-time.js';
import type { FuzzSession, RunModel, RunReal } from './fuzz-session.js';
import { ServerChoices } from '../rules/session/server-choices.js';
import { RuleSessions } from '../rules/session/rule-sessions.js';
import { FUZZ_RULES } from '../rules/index.js';
import { sendStep } from './send-step.js';

/** A real-time server whose public windows are minutes of its own clock (`aheadMs` ahead of this machine's), answering GET /health from one client. */
function clockMinuteServer(aheadMs = 0) {
  let windowEnd = 0;
  let count = 0;
  return {
    send: async (): Promise<Exchange> => {
      const now = Date.now() + aheadMs;
      if (now >= windowEnd) [windowEnd, count] = [Math.floor(now / RATE_LIMIT_WINDOW_MS) * RATE_LIMIT_WINDOW_MS + RATE_LIMIT_WINDOW_MS, 0];
      count++;
      const headers = {
        date: new Date(now).toUTCString(),
        [HEADERS.rateLimitLimit]: String(RATE_LIMITS.public.limit),
        [HEADERS.rateLimitRemaining]: String(RATE_LIMITS.public.limit - count),
        [HEADERS.rateLimitReset]: String(windowEnd / 1000),
      };
      const text = JSON.stringify({ status: 'ok', version: '1.0.0' });
      return {
        method: 'GET',
        url: 'http://target.test/health',
        requestHeaders: {},
        requestBody: undefined,
        status: 200,
        headers,
        text,
        body: JSON.parse(text),
        sentAt: Date.now(),
        receivedAt: Date.now(),
      };
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('sendStep in real time', () => {
  const identity = { label: '192.0.2.1' } as Identity;
  const health = {
    description: 'GET /health',
    call: { method: 'GET', path: '/health', identity },
    caller: { ip: identity.label, gameOrigin: false },
    outcome: 'health',
  } as const;

  function run(aheadMs: number) {
    const choices = new ServerChoices();
    const session = {
      target: clockMinuteServer(aheadMs),
      stats: { runs: 1, commands: 0, requests: 0, limited: 0 },
      counted: () => {},
      choices,
      serverClock: new ServerClock(),
    };
    const limits = new RateLimitModel({ alignments: (category) => choices.alignmentFor(category), boundaryToleranceMs: 2_000 });
    const model: RunModel = { limits, nowMs: undefined, pending: [] };
    const real: RunReal = {
      session: session as unknown as FuzzSession,
      identities: [identity],
      players: [],
      steps: [],
      ruleSessions: new RuleSessions(FUZZ_RULES),
    };
    return { session, model, real };
  }

  it('follows clock-minute windows learned from the first answer, across the next minute', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse('2030-01-01T09:00:30.000Z'));
    const { session, model, real } = run(0);
    await sendStep(model, real, health);
    expect(session.choices.alignments.get('public')).toBe('clock-minute');
    vi.setSystemTime(Date.parse('2030-01-01T09:01:05.000Z'));
    await sendStep(model, real, health);
    expect(real.steps.map((step) => step.exchange?.headers[HEADERS.rateLimitRemaining])).toEqual(['59', '59']);
  });

  it("times windows by the server's clock, as its Date header shows it, not by this machine's", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    // The server's clock is 30 s ahead: its minute ends when this machine's reads 09:00:30.
    vi.setSystemTime(Date.parse('2030-01-01T09:00:00.000Z'));
    const { model, real } = run(30_000);
    await sendStep(model, real, health);
    vi.setSystemTime(Date.parse('2030-01-01T09:00:35.000Z'));
    await sendStep(model, real, health);
    expect(real.steps.map((step) => [step.exchange?.headers[HEADERS.rateLimitRemaining], step.findings])).toEqual([
      ['59', []],
      ['59', []],
    ]);
  });
});
