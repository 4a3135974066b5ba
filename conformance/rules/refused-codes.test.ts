import { describe, expect, it } from 'vitest';
import { judgementsOf } from '../../test/support/judged-exchange.js';
import type { AnyRuleId, Knowledge } from './index.js';

const TOKEN = { success: true, authToken: '3f2b8c1e-9d4a-4e7b-8c6f-1a2b3c4d5e6f', expiresAt: '2026-12-13T00:00:00Z' };

/** A verification of `player@example.com`, answered `status` with `body`: the verdicts of `rule` on it. */
function verdicts(rule: AnyRuleId, status: number, body: unknown, more: Partial<Knowledge>) {
  const verification = { method: 'POST', path: '/api/auth/verify-email', json: { email: 'player@example.com', otp: '123456' }, status, body };
  return judgementsOf([rule], verification, more).map(({ aspect, holds }) => ({ aspect, holds }));
}

const CASES = [
  ['VERIFY-REUSED', { codeUsedBefore: true }],
  ['VERIFY-WRONG', { wrongCode: true }],
  ['VERIFY-BOUND', { codeOfAnotherAddress: true }],
] as const;

describe.each(CASES)('%s', (rule, told) => {
  it('says nothing where the sender does not know the code is not to be taken', () => {
    expect(verdicts(rule, 200, TOKEN, {})).toEqual([]);
  });

  it('on live traffic, fails only a code taken: a success, or a token handed out with any status', () => {
    expect(verdicts(rule, 200, TOKEN, told)).toEqual([{ aspect: 'not-taken', holds: false }]);
    expect(verdicts(rule, 409, { error: 'x', authToken: TOKEN.authToken }, told)).toEqual([{ aspect: 'not-taken', holds: false }]);
    for (const status of [400, 401, 429, 500]) expect(verdicts(rule, status, { error: 'x' }, told)).toEqual([{ aspect: 'not-taken', holds: true }]);
  });

  it("of a check's shaped request, asks a 4xx (any: status not shown) and no token, so a server error fails it", () => {
    const shaped = { ...told, shaped: true };
    for (const status of [400, 401, 403, 422, 429]) {
      expect(verdicts(rule, status, { error: 'x' }, shaped)).toEqual([
        { aspect: 'refused', holds: true },
        { aspect: 'no-token', holds: true },
      ]);
    }
    expect(verdicts(rule, 500, { error: 'x' }, shaped)).toEqual([
      { aspect: 'refused', holds: false },
      { aspect: 'no-token', holds: true },
    ]);
    expect(verdicts(rule, 400, { error: 'x', authToken: TOKEN.authToken }, shaped)).toEqual([
      { aspect: 'refused', holds: true },
      { aspect: 'no-token', holds: false },
    ]);
  });
});

/** A registration of `email`, answered `status`: REG-INVALID's verdicts on it. */
function regInvalid(email: string, status: number, more: Partial<Knowledge> = {}) {
  const body = status === 200 ? { success: true, message: `Verification code sent to ${email}` } : { error: 'x' };
  const registration = { method: 'POST', path: '/api/auth/register', json: { email }, status, body };
  return judgementsOf(['REG-INVALID'], registration, more).map(({ aspect, holds }) => ({ aspect, holds }));
}

const MALFORMED = ['player', 'player.example.com', '@example.com', 'player@', 'a@b@example.com', 'a b@example.com', 'player@exa mple.com'];

describe('REG-INVALID', () => {
  it('on live traffic, fails an accepted registration of what is no address, holds any refusal of it, and says nothing of an address', () => {
    for (const email of MALFORMED) expect(regInvalid(email, 200), email).toEqual([{ aspect: 'address', holds: false }]);
    for (const status of [400, 422, 429, 500]) expect(regInvalid('@example.com', status)).toEqual([{ aspect: 'address', holds: true }]);
    for (const email of ['player@example.com', 'Player@Example.COM', 'player@localhost', '"a b"@example.com']) {
      expect(regInvalid(email, 200), email).toEqual([]);
    }
  });

  it("where the parameters alone can be wrong, asks the spec's 400 for what is no address: not a 422, a 429 or a 500", () => {
    for (const email of MALFORMED) expect(regInvalid(email, 400, { parametersAlone: true }), email).toEqual([{ aspect: 'refused-400', holds: true }]);
    for (const status of [200, 422, 429, 500]) {
      expect(regInvalid('player@', status, { parametersAlone: true })).toEqual([{ aspect: 'refused-400', holds: false }]);
    }
    expect(regInvalid('player@example.com', 200, { parametersAlone: true })).toEqual([]);
  });
});
