import { describe, expect, it } from 'vitest';
import type { Exchange } from '../common/exchange.js';
import { GameOriginCounts } from './game-origin-counts.js';

const TOKEN = '3f2b8c1e-9d4a-4e7b-8c6f-1a2b3c4d5e6f';

function answer(remaining: number | undefined, { limit = 60, reset = '1800000060000', status = 200 } = {}): Exchange {
  const headers: Record<string, string> =
    remaining === undefined ? {} : { 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': reset };
  return {
    method: 'GET',
    url: 'http://game.example/api/player',
    requestHeaders: { authorization: `Bearer ${TOKEN}` },
    requestBody: undefined,
    status,
    headers,
    text: '{}',
    body: {},
    sentAt: 0,
    receivedAt: 0,
  };
}

/** The verdict on each answer in turn, as one caller's reads: `true` for a game origin's request. */
function verdicts(sequence: readonly [boolean, Exchange][], path = '/api/player'): (string | undefined)[] {
  const counts = new GameOriginCounts();
  return sequence.map(([gameOrigin, exchange]) => {
    const caller = { ip: '198.51.100.7', gameOrigin };
    const judgements = counts.observe(exchange, { path, external: !gameOrigin, serverTime: { fromMs: 0, toMs: 0 }, caller });
    return judgements.find((judgement) => !judgement.holds)?.message;
  });
}

describe("a game origin's requests counted in a bucket the spec exempts", () => {
  it('is reported when Remaining falls by one across two answers in a row to the game origin', () => {
    const found = verdicts([
      [true, answer(59)],
      [true, answer(58)],
      [true, answer(57)],
    ]);
    expect(found[0]).toBeUndefined();
    expect(found[1]).toMatch(/fell from 59 to 58 across two requests of a game origin/);
    expect(found[2]).toMatch(/fell from 58 to 57/);
  });

  it('is not reported for headers that stay put, or no headers (both legal on exempt answers)', () => {
    expect(
      verdicts([
        [true, answer(60)],
        [true, answer(60)],
        [true, answer(undefined)],
        [true, answer(undefined)],
      ]),
    ).toEqual([undefined, undefined, undefined, undefined]);
  });

  it("is not taken from an external request counted between the game origin's", () => {
    expect(
      verdicts([
        [true, answer(59)],
        [false, answer(58)],
        [true, answer(57)],
      ]),
    ).toEqual([undefined, undefined, undefined]);
  });

  it('is not judged on buckets that stay limited for every caller (auth, admin) or on the auth routes', () => {
    expect(
      verdicts([
        [true, answer(4, { limit: 5 })],
        [true, answer(3, { limit: 5 })],
      ]),
    ).toEqual([undefined, undefined]);
    expect(
      verdicts([
        [true, answer(9, { limit: 10 })],
        [true, answer(8, { limit: 10 })],
      ]),
    ).toEqual([undefined, undefined]);
    expect(
      verdicts(
        [
          [true, answer(59)],
          [true, answer(58)],
        ],
        '/api/auth/register',
      ),
    ).toEqual([undefined, undefined]);
  });

  it('is not taken from a fresh window after a full bucket, told by its Reset', () => {
    expect(
      verdicts([
        [true, answer(60, { reset: '1800000060000' })],
        [true, answer(59, { reset: '1800000120000' })],
      ]),
    ).toEqual([undefined, undefined]);
    expect(
      verdicts([
        [true, answer(60)],
        [true, answer(59)],
      ])[1],
    ).toMatch(/fell from 60 to 59/);
  });
});
