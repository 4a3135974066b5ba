import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../common/exchange.js';
import { LiveRateLimits } from './live-rate-limits.js';
import { departures } from '../index.js';

const T0 = Date.parse('2026-11-26T00:00:00Z');
const alice = { ip: '198.51.100.2', playerId: 'alice@example.com', gameOrigin: false };

/** A read of alice's answered with `remaining` left (and a 429 at 0), at `secondsIn` on the server's clock. */
function read(remaining: number, secondsIn: number, { status = remaining < 0 ? 429 : 200, overlapped = false } = {}) {
  const atMs = T0 + secondsIn * 1000;
  const headers: Record<string, string> = {
    'x-ratelimit-limit': '60',
    'x-ratelimit-remaining': String(Math.max(remaining, 0)),
    'x-ratelimit-reset': String(Math.ceil((T0 + 60_000) / 1000)),
    ...(status === 429 ? { 'retry-after': String(Math.ceil((T0 + 60_000 - atMs) / 1000)) } : {}),
  };
  const body = status === 429 ? { error: 'Too many requests' } : { success: true, player: {} };
  const exchange: Exchange = {
    method: 'GET',
    url: 'http://target.test/api/player',
    requestHeaders: { authorization: 'Bearer t' },
    requestBody: undefined,
    status,
    headers,
    text: JSON.stringify(body),
    body,
    sentAt: atMs,
    receivedAt: atMs,
  };
  return { method: 'GET', path: '/api/player', caller: alice, exchange, serverTime: { fromMs: atMs, toMs: atMs + 999 }, overlapped };
}

/** The rules that depart on the model's reading of an answer (its `model-` aspects: what the rules judge of the sequence). */
function rules(limits: LiveRateLimits, observation: ReturnType<typeof read>): string[] {
  const { modelled } = limits.read(observation);
  if (modelled === undefined) return [];
  const knowledge = { path: observation.path, external: true, serverTime: observation.serverTime, modelledAnswer: modelled };
  return departures(observation.exchange, knowledge)
    .filter((verdict) => verdict.aspect.startsWith('model-'))
    .map((verdict) => verdict.rule);
}

describe('LiveRateLimits: buckets the proxy did not see open', () => {
  it('adopts a bucket from its first answer, however spent, then judges the count from there', () => {
    const limits = new LiveRateLimits();
    expect(rules(limits, read(40, 1))).toEqual([]);
    expect(rules(limits, read(39, 2))).toEqual([]);
    expect(rules(limits, read(37, 3))).toEqual(['RL-REMAINING']);
  });

  it('judges two answers of one bucket in flight together on everything but their place in the count', () => {
    const limits = new LiveRateLimits();
    rules(limits, read(40, 1));
    expect(rules(limits, read(38, 2, { overlapped: true }))).toEqual([]);
    expect(rules(limits, read(39, 2, { overlapped: true }))).toEqual([]);
  });

  it('reports a 429 while the bucket it adopted still had requests left, and none once it is spent', () => {
    const spent = new LiveRateLimits();
    rules(spent, read(1, 1));
    rules(spent, read(0, 2));
    expect(rules(spent, read(-1, 3))).toEqual([]);
    const early = new LiveRateLimits();
    rules(early, read(10, 1));
    expect(rules(early, read(-1, 2))).toContain('RL-WINDOW');
  });

  it('takes a fresh window the server shows while the old window end was only a guess', () => {
    const limits = new LiveRateLimits();
    // No readable Reset: the window's end stays a guess.
    const withoutReset = (observation: ReturnType<typeof read>) => {
      const { 'x-ratelimit-reset': _reset, ...headers } = observation.exchange.headers;
      return { ...observation, exchange: { ...observation.exchange, headers } };
    };
    rules(limits, withoutReset(read(20, 1)));
    expect(rules(limits, withoutReset(read(59, 5))).filter((rule) => rule !== 'RL-RESET')).toEqual([]);
  });

  it('follows a bounded number of buckets (100,000 by default): past them it adopts every bucket again, so an address per request cannot grow its memory', () => {
    const limits = new LiveRateLimits(1_000);
    const at = (ip: string, remaining: number) => {
      const observation = read(remaining, 1);
      return { ...observation, caller: { ...alice, ip }, path: '/health', exchange: { ...observation.exchange, url: 'http://target.test/health' } };
    };
    rules(limits, at('10.0.0.1', 40));
    rules(limits, at('10.0.0.1', 39));
    for (let index = 0; index < 1_000; index++) limits.read(at(`11.0.${(index >> 8) & 255}.${index & 255}`, 50));
    // Remembered, 35 after 39 would be RL-REMAINING; forgotten, it is adopted.
    expect(rules(limits, at('10.0.0.1', 35))).toEqual([]);
  });
});
