import { describe, expect, it } from 'vitest';
import { judgementsOf } from '../../test/support/judged-exchange.js';
import type { Knowledge } from './index.js';

const TOKEN = { success: true, authToken: '3f2b8c1e-9d4a-4e7b-8c6f-1a2b3c4d5e6f', expiresAt: '2026-12-13T00:00:00Z' };

/** A verification of `player@EXAMPLE.COM`, answered `status` with `body`: VERIFY-BOUND's verdicts on it. */
function verifyBound(status: number, body: unknown, more: Partial<Knowledge>) {
  const verification = { method: 'POST', path: '/api/auth/verify-email', json: { email: 'player@EXAMPLE.COM', otp: '482913' }, status, body };
  return judgementsOf(['VERIFY-BOUND'], verification, more).map(({ aspect, holds }) => ({ aspect, holds }));
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
