import { describe, expect, it } from 'vitest';
import type { Exchange } from '../common/exchange.js';
import { judgeExchange, type Knowledge } from './index.js';

const TOKEN = { success: true, authToken: '3f2b8c1e-9d4a-4e7b-8c6f-1a2b3c4d5e6f', expiresAt: '2026-12-13T00:00:00Z' };

/** A verification of `player@EXAMPLE.COM`, answered `status` with `body`: VERIFY-BOUND's verdicts on it. */
function verifyBound(status: number, body: unknown, more: Partial<Knowledge>) {
  const exchange: Exchange = {
    method: 'POST',
    url: 'https://game.example/api/auth/verify-email',
    requestHeaders: { 'content-type': 'application/json' },
    requestBody: JSON.stringify({ email: 'player@EXAMPLE.COM', otp: '482913' }),
    status,
    headers: { 'content-type': 'application/json' },
    text: JSON.stringify(body),
    body,
    sentAt: 1,
    receivedAt: 2,
  };
  const knowledge: Knowledge = { path: '/api/auth/verify-email', external: true, serverTime: { fromMs: 1, toMs: 2 }, ...more };
  return judgeExchange(exchange, knowledge)
    .filter((verdict) => verdict.rule === 'VERIFY-BOUND')
    .map(({ aspect, holds }) => ({ aspect, holds }));
}

describe('VERIFY-BOUND: the address registered, its domain written in another letter case', () => {
  const told = { registeredAs: 'player@example.com', shaped: true };

  it('holds of a 2xx with an authToken: one address', () => {
    expect(verifyBound(200, TOKEN, told)).toEqual([{ aspect: 'same-address', holds: true }]);
  });

  it('fails a refusal (another address to the server), and a success without a token', () => {
    for (const status of [400, 401, 404])
      expect(verifyBound(status, { error: 'No valid code for this email' }, told)).toEqual([{ aspect: 'same-address', holds: false }]);
    expect(verifyBound(200, { success: true }, told)).toEqual([{ aspect: 'same-address', holds: false }]);
  });

  it('says nothing where the sender did not shape it, or does not know the address was registered otherwise', () => {
    expect(verifyBound(400, { error: 'x' }, { registeredAs: 'player@example.com' })).toEqual([]);
    expect(verifyBound(400, { error: 'x' }, { shaped: true })).toEqual([]);
  });
});
