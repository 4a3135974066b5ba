import { describe, expect, it } from 'vitest';
import { judgementsOf } from '../../test/support/judged-exchange.js';

const UUID = '3f2b8c1e-9d4a-4e7b-8c6f-1a2b3c4d5e6f';
const HEALTH = { method: 'GET', path: '/health', body: { status: 'ok', version: '1.0.0' } };
const REGISTER = { method: 'POST', path: '/api/auth/register', json: { email: 'pilot@example.com' }, body: { success: true, message: 'A code was sent' } };
const VERIFY = {
  method: 'POST',
  path: '/api/auth/verify-email',
  json: { email: 'pilot@example.com', otp: '123456' },
  body: { success: true, authToken: UUID, expiresAt: '2030-01-08T00:00:00.000Z' },
};

/** Whether the rule's "status 200" judgement holds: undefined where it makes none. */
const ok = (rule: 'HEALTH-NOAUTH' | 'REG-OK' | 'VERIFY-OK' | 'ENV-SUCCESS', sketch: object, status: number, shaped: boolean) =>
  judgementsOf([rule], { ...(sketch as { method: string; path: string }), status }, shaped ? { shaped: true } : {}).find(({ aspect }) => aspect === 'ok')
    ?.holds;

describe("a request a check shaped to succeed is due 200, the spec's one success status", () => {
  it.each([
    ['HEALTH-NOAUTH', HEALTH],
    ['REG-OK', REGISTER],
    ['VERIFY-OK', VERIFY],
    ['ENV-SUCCESS', { method: 'GET', path: '/api/player', requestHeaders: { authorization: `Bearer ${UUID}` }, body: { success: true, player: {} } }],
  ] as const)('%s: 200 holds and 201 does not, shaped; live traffic is judged on neither', (rule, sketch) => {
    expect(ok(rule, sketch, 200, true)).toBe(true);
    expect(ok(rule, sketch, 201, true)).toBe(false);
    expect(ok(rule, sketch, 500, true)).toBe(false);
    expect(ok(rule, sketch, 201, false)).toBeUndefined();
  });
});
