import { describe, expect, it } from 'vitest';
import type { Exchange } from '../common/exchange.js';
import { judgeExchange } from './index.js';

/** RL-LIMIT's judgement of the bucket size on an answer of `status` to `method path` that sends `X-RateLimit-Limit: limit`. */
function limitSize(method: string, path: string, status: number, limit: number, external = true) {
  const exchange: Exchange = {
    method,
    url: `https://game.example${path}`,
    requestHeaders: {},
    requestBody: undefined,
    status,
    headers: { 'content-type': 'application/json', 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1' },
    text: '{}',
    body: {},
    sentAt: 1,
    receivedAt: 2,
  };
  return judgeExchange(exchange, { path, external, serverTime: { fromMs: 1, toMs: 2 } })
    .filter((verdict) => verdict.rule === 'RL-LIMIT' && verdict.aspect === 'limit-size')
    .map((verdict) => verdict.holds);
}

describe('RL-LIMIT: X-RateLimit-Limit is the bucket size', () => {
  it("holds the size the Limits table gives the route's bucket, on any answer that bucket counted", () => {
    expect(limitSize('GET', '/health', 200, 60)).toEqual([true]);
    expect(limitSize('POST', '/api/auth/register', 200, 5)).toEqual([true]);
    expect(limitSize('POST', '/api/auth/verify-email', 429, 5)).toEqual([true]);
    expect(limitSize('GET', '/api/player', 200, 60)).toEqual([true]);
    expect(limitSize('POST', '/api/player/ship', 403, 60)).toEqual([true]);
  });

  it('fails a size that is not the bucket size', () => {
    expect(limitSize('GET', '/health', 200, 61)).toEqual([false]);
    expect(limitSize('POST', '/api/auth/register', 200, 6)).toEqual([false]);
    // A wrong code's refusal is counted in the auth bucket, whatever its status.
    expect(limitSize('POST', '/api/auth/verify-email', 401, 10)).toEqual([false]);
    // Auth stays limited by IP for every caller, a game origin's too.
    expect(limitSize('POST', '/api/auth/register', 200, 6, false)).toEqual([false]);
  });

  it("leaves alone what the spec does not show: a game origin's exempt buckets, a 401 to a player's route, a server error, a route beyond the table", () => {
    expect(limitSize('GET', '/health', 200, 1000, false)).toEqual([]);
    expect(limitSize('GET', '/api/player', 200, 1000, false)).toEqual([]);
    expect(limitSize('GET', '/api/player', 401, 1000)).toEqual([]);
    expect(limitSize('GET', '/health', 503, 1000)).toEqual([]);
    expect(limitSize('GET', '/api/player/ship', 200, 1000)).toEqual([]);
  });
});
