import { afterEach, describe, expect, it, vi } from 'vitest';
import { HEADERS, RATE_LIMITS, RATE_LIMIT_WINDOW_MS } from '../../src/spec/limits.js';
import type { Exchange } from '../target/exchange.js';
import type { Identity } from '../target/identities.js';
import { RateLimitModel } from '../model/rate-limit-model.js';
import type { FuzzSession, RunModel, RunReal } from './fuzz-session.js';
import { ServerChoices } from './server-choices.js';
import { sendStep } from './send-step.js';

/** A real-time server whose public windows are clock minutes, answering GET /health from one client. */
function clockMinuteServer() {
  let windowEnd = 0;
  let count = 0;
  return {
    send: async (): Promise<Exchange> => {
      const now = Date.now();
      if (now >= windowEnd) [windowEnd, count] = [Math.floor(now / RATE_LIMIT_WINDOW_MS) * RATE_LIMIT_WINDOW_MS + RATE_LIMIT_WINDOW_MS, 0];
      count++;
      const headers = {
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
        sentAt: now,
        receivedAt: now,
      };
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('sendStep in real time', () => {
  it('follows clock-minute windows learned from the first answer, across the next minute', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse('2030-01-01T09:00:30.000Z'));
    const session = { target: clockMinuteServer(), stats: { runs: 1, commands: 0, requests: 0, limited: 0 }, counted: () => {}, choices: new ServerChoices() };
    const identity = { label: '192.0.2.1' } as Identity;
    const model: RunModel = { limits: new RateLimitModel({ alignment: 'first-hit', boundaryToleranceMs: 2_000 }), nowMs: undefined, pending: [] };
    const real = { session: session as unknown as FuzzSession, identities: [identity], players: [], steps: [] } as RunReal;
    const health = {
      description: 'GET /health',
      call: { method: 'GET', path: '/health', identity },
      caller: { ip: identity.label, gameOrigin: false },
      outcome: 'health',
    } as const;

    await sendStep(model, real, health);
    expect(session.choices.alignment).toBe('clock-minute');
    vi.setSystemTime(Date.parse('2030-01-01T09:01:05.000Z'));
    await sendStep(model, real, health);
    expect(real.steps.map((step) => step.exchange?.headers[HEADERS.rateLimitRemaining])).toEqual(['59', '59']);
  });
});
