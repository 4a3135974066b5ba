import { describe, expect, it } from 'vitest';
import { judgementsOf } from '../../test/support/judged-exchange.js';
import type { AnyRuleId, Knowledge } from './index.js';

const CODE = '482913';

/** A registration of `email`, answered `status` with `body` (and `headers`): the verdicts of `rule` on it. */
function verdicts(rule: AnyRuleId, email: string, status: number, body: unknown, more: Partial<Knowledge>, headers: Record<string, string> = {}) {
  const registration = { method: 'POST', path: '/api/auth/register', json: { email }, status, body, headers };
  return judgementsOf([rule], registration, more).map(({ aspect, holds }) => ({ aspect, holds }));
}

const REGISTERED = { success: true, message: 'A verification code was sent to player@example.com' };
const codeVerdict = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  verdicts('REG-OK', 'player@example.com', status, body, { deliveredCode: CODE }, headers).filter((verdict) => verdict.aspect === 'code-not-answered');

describe('REG-OK: no answer carries the code it delivered', () => {
  it('holds of an answer without the code, own fields and other digits included (a timestamp, a longer number)', () => {
    expect(codeVerdict(200, REGISTERED)).toEqual([{ aspect: 'code-not-answered', holds: true }]);
    expect(codeVerdict(200, { ...REGISTERED, requestId: `9${CODE}1`, at: 1_700_000_482_913 }, { 'x-request-id': `${CODE}7` })).toEqual([
      { aspect: 'code-not-answered', holds: true },
    ]);
  });

  it('fails an answer that carries it: a field, the message, a header, whatever its status', () => {
    expect(codeVerdict(200, { ...REGISTERED, otp: CODE })).toEqual([{ aspect: 'code-not-answered', holds: false }]);
    expect(codeVerdict(200, { success: true, message: `Your code is ${CODE}` })).toEqual([{ aspect: 'code-not-answered', holds: false }]);
    expect(codeVerdict(200, REGISTERED, { 'x-debug-otp': CODE })).toEqual([{ aspect: 'code-not-answered', holds: false }]);
    expect(codeVerdict(409, { error: `pending code ${CODE}` })).toEqual([{ aspect: 'code-not-answered', holds: false }]);
  });

  it('says nothing of it where the code delivered is not known (live traffic)', () => {
    expect(verdicts('REG-OK', 'player@example.com', 200, { ...REGISTERED, otp: CODE }, {}).map(({ aspect }) => aspect)).not.toContain('code-not-answered');
  });
});

describe('REG-DISPOSABLE: a refused registration delivers nothing', () => {
  const refused = { error: 'Disposable email addresses are not accepted' };

  it('holds where no code was delivered for the refused address, and fails where one was', () => {
    expect(verdicts('REG-DISPOSABLE', 'player@mailinator.com', 400, refused, { codeDelivered: false })).toEqual([{ aspect: 'nothing-delivered', holds: true }]);
    expect(verdicts('REG-DISPOSABLE', 'player@Mailinator.COM', 422, refused, { codeDelivered: true })).toEqual([{ aspect: 'nothing-delivered', holds: false }]);
  });

  it('judges an accepted disposable address as accepted, not by its code; and says nothing where the outbox was not read', () => {
    expect(verdicts('REG-DISPOSABLE', 'player@mailinator.com', 200, REGISTERED, { codeDelivered: true })).toEqual([{ aspect: 'not-disposable', holds: false }]);
    expect(verdicts('REG-DISPOSABLE', 'player@mailinator.com', 400, refused, {})).toEqual([]);
    expect(verdicts('REG-DISPOSABLE', 'player@example.com', 400, refused, { codeDelivered: true })).toEqual([]);
  });
});

describe('REG-INVALID: a refused malformed address delivers nothing', () => {
  it('holds where no code was delivered, and fails where one was', () => {
    const knowledge = { parametersAlone: true };
    expect(verdicts('REG-INVALID', 'player@', 400, { error: 'x' }, { ...knowledge, codeDelivered: false })).toEqual([
      { aspect: 'refused-400', holds: true },
      { aspect: 'nothing-delivered', holds: true },
    ]);
    expect(verdicts('REG-INVALID', 'player@', 400, { error: 'x' }, { ...knowledge, codeDelivered: true })).toEqual([
      { aspect: 'refused-400', holds: true },
      { aspect: 'nothing-delivered', holds: false },
    ]);
  });
});
