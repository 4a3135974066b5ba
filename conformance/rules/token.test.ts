import { describe, expect, it } from 'vitest';
import { exchangeOf, knowledgeOf } from '../../test/support/judged-exchange.js';
import { judgeExchange, type Knowledge } from './index.js';

const NEVER_ISSUED = '3f2b8c1e-9d4a-4e7b-8c6f-1a2b3c4d5e6f';

/** GET /api/player with `token` (a well-formed one by default), answered `status`: what AUTH-401 makes of it. */
function auth401(status: number, more: Partial<Knowledge> = {}, token = NEVER_ISSUED) {
  const exchange = exchangeOf({ method: 'GET', path: '/api/player', requestHeaders: { authorization: `Bearer ${token}` }, status, body: { error: 'x' } });
  const knowledge = knowledgeOf('/api/player', more);
  return judgeExchange(exchange, knowledge).filter((verdict) => verdict.rule === 'AUTH-401');
}

describe('AUTH-401', () => {
  it('holds a request with a token that is not even a UUID to a 401 on any traffic, the 401 judged as much as its departure', () => {
    expect(auth401(401, {}, 'not-a-uuid').map(({ aspect, holds }) => ({ aspect, holds }))).toEqual([{ aspect: 'not-uuid', holds: true }]);
    expect(auth401(200, {}, 'not-a-uuid').map(({ aspect, holds }) => ({ aspect, holds }))).toEqual([{ aspect: 'not-uuid', holds: false }]);
    for (const status of [429, 500]) expect(auth401(status, {}, 'not-a-uuid')).toEqual([]);
  });

  it('says nothing of a well-formed token on traffic it did not make: only the server knows whether it issued it', () => {
    for (const status of [200, 401, 403, 429, 500]) expect(auth401(status)).toEqual([]);
  });

  it('holds a sender that knows the token is not honoured to a 401, and to nothing else: not a 403, a 429 or a 500', () => {
    const refusedCredentials = 'a UUID the server never issued';
    expect(auth401(401, { refusedCredentials }).map((verdict) => verdict.holds)).toEqual([true]);
    for (const status of [200, 403, 429, 500]) {
      expect(auth401(status, { refusedCredentials })).toMatchObject([
        { holds: false, expected: 'status 401 (a UUID the server never issued)', message: `answered ${status} to a UUID the server never issued` },
      ]);
    }
  });

  it('holds a real token with a character added, removed or changed to a 401 where the sender says so, and fails it taken', () => {
    const neighbours = [`${NEVER_ISSUED}0`, NEVER_ISSUED.slice(0, -1), `${NEVER_ISSUED.slice(0, -1)}0`];
    for (const token of neighbours) {
      const refusedCredentials = 'a real token with one character altered';
      expect(auth401(401, { refusedCredentials }, token).map((verdict) => verdict.holds)).toEqual([true]);
      expect(auth401(200, { refusedCredentials }, token).map((verdict) => verdict.holds)).toEqual([false]);
    }
    // One that is no UUID any more fails taken on live traffic too.
    expect(auth401(200, {}, `${NEVER_ISSUED}0`)).toMatchObject([{ aspect: 'not-uuid', holds: false }]);
  });
});
