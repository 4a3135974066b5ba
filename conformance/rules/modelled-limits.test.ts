import { describe, expect, it } from 'vitest';
import type { Exchange } from '../common/exchange.js';
import { departures, judgeExchange } from './index.js';
import type { ModelledAnswer, Outcome } from './model/modelled-answer.js';
import type { Expectation } from './model/rate-limit-model.js';

const AT = Date.parse('2030-01-01T09:00:10Z');

function answer(path: string, status: number, headers: Record<string, string> = {}): Exchange {
  const body = status < 400 ? { success: true } : { error: 'refused' };
  return {
    method: 'POST',
    url: `https://game.example${path}`,
    requestHeaders: {},
    requestBody: '{}',
    status,
    headers: { 'content-type': 'application/json', ...headers },
    text: JSON.stringify(body),
    body,
    sentAt: AT,
    receivedAt: AT,
  };
}

/** The auth bucket of 198.51.100.7 as the model counts it: `remaining` left after this request, spent when `limited`. */
function auth(remaining: number, { limited = false, counted = true as boolean | undefined } = {}): Expectation {
  return { category: 'auth', key: 'auth ip 198.51.100.7', counted, limit: 5, remaining, limited, windowEndMs: AT + 50_000, nearBoundary: false };
}

function modelled(expectation: Expectation, extra: Partial<ModelledAnswer> & { gameOrigin?: boolean; outcome?: Outcome } = {}): ModelledAnswer {
  const { gameOrigin = false, outcome = 'handled', ...rest } = extra;
  return {
    expectation,
    caller: { ip: '198.51.100.7', gameOrigin },
    outcome,
    exactClock: true,
    alignmentKnown: true,
    unforeseen429: false,
    ...rest,
  };
}

/** The rules that depart on what the model says of the answer (their `model-` aspects). */
function departed(exchange: Exchange, modelledAnswer: ModelledAnswer): string[] {
  const path = new URL(exchange.url).pathname;
  return departures(exchange, { path, external: !modelledAnswer.caller.gameOrigin, serverTime: { fromMs: AT, toMs: AT }, modelledAnswer })
    .filter((verdict) => verdict.aspect.startsWith('model-'))
    .map((verdict) => verdict.rule);
}

const REGISTER = '/api/auth/register';
const VERIFY = '/api/auth/verify-email';

describe("the Limits judged on the model's reading of an answer", () => {
  it('a spent bucket is due its 429: RL-WINDOW for an external caller, RL-AUTH-IP for a game origin; the 429 holds', () => {
    expect(departed(answer(REGISTER, 200), modelled(auth(0, { limited: true })))).toEqual(['RL-WINDOW']);
    expect(departed(answer(REGISTER, 200), modelled(auth(0, { limited: true }), { gameOrigin: true }))).toEqual(['RL-AUTH-IP']);
    expect(departed(answer(REGISTER, 429, { 'retry-after': '50' }), modelled(auth(0, { limited: true })))).toEqual([]);
  });

  it("a 429 with room left is RL-WINDOW's, a game origin's in a bucket that does not count it RL-EXEMPT's", () => {
    expect(departed(answer(REGISTER, 429), modelled(auth(3)))).toEqual(['RL-WINDOW']);
    const exempt: Expectation = { ...auth(0), category: 'gameplay', counted: false, limit: undefined, remaining: undefined };
    expect(departed(answer('/api/ship/move', 429), modelled(exempt, { gameOrigin: true }))).toEqual(['RL-EXEMPT']);
    expect(departed(answer('/api/ship/move', 200), modelled(exempt, { gameOrigin: true }))).toEqual([]);
  });

  it('Remaining is one less per counted request: the count the model kept, not another', () => {
    expect(departed(answer(REGISTER, 200, { 'x-ratelimit-remaining': '3' }), modelled(auth(3)))).toEqual([]);
    expect(departed(answer(REGISTER, 200, { 'x-ratelimit-remaining': '4' }), modelled(auth(3)))).toEqual(['RL-REMAINING']);
    expect(departed(answer(REGISTER, 200, { 'x-ratelimit-remaining': '4' }), modelled({ ...auth(3), nearBoundary: true }))).toEqual([]);
  });

  it("a Reset read otherwise than its category showed, a window end that is not the model's, a Retry-After that does not fit: each its rule's", () => {
    const unit = modelled(auth(3), { reset: { rule: 'RL-RESET', problem: 'X-RateLimit-Reset 7 no longer reads as seconds' } });
    expect(departed(answer(REGISTER, 200), unit)).toEqual(['RL-RESET']);
    const long = modelled(auth(3), { reset: { rule: 'RL-WINDOW', problem: 'a window of two minutes' } });
    expect(departed(answer(REGISTER, 200), long)).toEqual(['RL-WINDOW']);
    const inWindow = { windowEnd: { fromMs: AT + 50_000, toMs: AT + 50_999 } };
    expect(departed(answer(REGISTER, 200), modelled(auth(3), { reset: inWindow }))).toEqual([]);
    const later = { windowEnd: { fromMs: AT + 110_000, toMs: AT + 110_999 } };
    expect(departed(answer(REGISTER, 200), modelled(auth(3), { reset: later }))).toEqual(['RL-WINDOW']);
    // In real time the server's clock is not this machine's: its window's end is judged by its answers alone.
    expect(departed(answer(REGISTER, 200), modelled(auth(3), { reset: later, exactClock: false }))).toEqual([]);
    const retry = modelled(auth(0, { limited: true }), { retryAfterProblem: 'Retry-After 3600 asks for an hour' });
    expect(departed(answer(REGISTER, 429, { 'retry-after': '3600' }), retry)).toEqual(['RL-429']);
  });

  it("a 429 the model did not see coming on a verification may be another limit's (wrong codes): neither RL-WINDOW nor RL-429 judge it", () => {
    const unforeseen = modelled(auth(3), { unforeseen429: true, retryAfterProblem: 'Retry-After 600 asks for ten minutes' });
    expect(departed(answer(VERIFY, 429, { 'retry-after': '600' }), unforeseen)).toEqual([]);
    // On a registration no other limit is in sight: the early 429 is RL-WINDOW's.
    expect(departed(answer(REGISTER, 429, { 'retry-after': '600' }), unforeseen)).toEqual(['RL-WINDOW']);
  });

  it('a request due a refusal where no limit applies is ENV-ERROR’s when it is accepted', () => {
    const refusal = modelled(auth(3), { outcome: 'refusal' });
    expect(departed(answer(VERIFY, 200), refusal)).toEqual(['ENV-ERROR']);
    expect(departed(answer(VERIFY, 400), refusal)).toEqual([]);
  });

  it('judges nothing of the kind without a model: a single exchange says nothing of its bucket', () => {
    const verdicts = judgeExchange(answer(REGISTER, 429), { path: REGISTER, external: true, serverTime: { fromMs: AT, toMs: AT } });
    expect(verdicts.filter((verdict) => verdict.aspect.startsWith('model-'))).toEqual([]);
  });
});
