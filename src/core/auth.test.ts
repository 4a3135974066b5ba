import { describe, expect, it } from 'vitest';
import { OTP_LIFETIME_MS, TOKEN_LIFETIME_MS } from '../spec/limits.js';
import { CoreHarness, START } from '../../test/support/core-harness.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function registerAndVerifyAt(harness: CoreHarness, email: string, delayMs: number) {
  await harness.call('POST', '/api/auth/register', { body: { email } });
  harness.clock.advance(delayMs);
  return harness.call('POST', '/api/auth/verify-email', { body: { email, otp: harness.lastCode(email) } });
}

describe('register', () => {
  it('delivers a 6-digit code for the normalized address and answers the register envelope', async () => {
    const harness = new CoreHarness();
    const response = await harness.call('POST', '/api/auth/register', { body: { email: ' Alice@Example.COM ' } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, message: expect.stringContaining('alice@example.com') });
    expect(harness.deliveries).toHaveLength(1);
    expect(harness.deliveries[0]).toMatchObject({ email: 'alice@example.com', issuedAt: START, expiresAt: START + OTP_LIFETIME_MS });
    expect(harness.deliveries[0]!.code).toMatch(/^\d{6}$/);
  });

  it.each([
    ['missing email', {}, 'email is required'],
    ['non-string email', { email: 42 }, 'email must be a string'],
    ['invalid address', { email: 'not-an-address' }, 'valid email'],
    ['address without a TLD', { email: 'a@localhost' }, 'valid email'],
    ['disposable domain', { email: 'someone@mailinator.com' }, 'Disposable'],
    ['subdomain of a disposable domain', { email: 'someone@inbox.mailinator.com' }, 'Disposable'],
    ['non-string challengeToken (bot-check on)', { email: 'a@example.com', challengeToken: 5 }, 'challengeToken must be a string'],
  ])('rejects a %s with 400 and no code', async (_case, body, message) => {
    const harness = new CoreHarness({ botCheck: { mode: 'always-pass' } });
    const response = await harness.call('POST', '/api/auth/register', { body });
    expect(response.status).toBe(400);
    expect((response.body as { error: string }).error).toContain(message);
    expect(harness.deliveries).toHaveLength(0);
  });

  it('stores the code salted and hashed, never as the code itself', async () => {
    const harness = new CoreHarness();
    await harness.call('POST', '/api/auth/register', { body: { email: 'a@example.com' } });
    const stored = [...harness.service.store.pendingCodes.values(START)][0]!;
    expect(stored.hash.byteLength).toBe(32);
    expect(new TextDecoder().decode(stored.hash)).not.toContain(harness.lastCode('a@example.com'));
    expect(Object.values(stored)).not.toContain(harness.lastCode('a@example.com'));
  });
});

describe('bot-check', () => {
  const register = (harness: CoreHarness, challengeToken?: string) =>
    harness.call('POST', '/api/auth/register', { body: { email: 'a@example.com', ...(challengeToken === undefined ? {} : { challengeToken }) } });

  it('ignores challengeToken when no bot-check is configured', async () => {
    expect((await register(new CoreHarness())).status).toBe(200);
  });

  it('requires a token once configured, and applies the mode', async () => {
    const pass = new CoreHarness({ botCheck: { mode: 'always-pass' } });
    expect((await register(pass)).status).toBe(400);
    expect((await register(pass, 'XXXX.DUMMY.TOKEN.XXXX')).status).toBe(200);
    const fail = new CoreHarness({ botCheck: { mode: 'always-fail' } });
    expect((await register(fail, 'XXXX.DUMMY.TOKEN.XXXX')).status).toBe(400);
    const list = new CoreHarness({ botCheck: { mode: 'tokens', tokens: ['good'] } });
    expect((await register(list, 'bad')).status).toBe(400);
    expect((await register(list, 'good')).status).toBe(200);
  });
});

describe('verify-email', () => {
  it('issues a UUID v4 token expiring exactly 7 days after issue', async () => {
    const harness = new CoreHarness();
    const response = await registerAndVerifyAt(harness, 'a@example.com', 1234);
    expect(response.status).toBe(200);
    const body = response.body as { success: boolean; authToken: string; expiresAt: string };
    expect(body.success).toBe(true);
    expect(body.authToken).toMatch(UUID_V4);
    expect(body.expiresAt).toBe(new Date(START + 1234 + TOKEN_LIFETIME_MS).toISOString());
  });

  it('accepts a code 1 ms before its 15 minutes are up, and rejects it at 15 minutes', async () => {
    expect((await registerAndVerifyAt(new CoreHarness(), 'a@example.com', OTP_LIFETIME_MS - 1)).status).toBe(200);
    const late = await registerAndVerifyAt(new CoreHarness(), 'a@example.com', OTP_LIFETIME_MS);
    expect(late.status).toBe(400);
    expect(late.body).toEqual({ error: expect.stringContaining('register again') });
  });

  it('accepts a code once', async () => {
    const harness = new CoreHarness();
    expect((await registerAndVerifyAt(harness, 'a@example.com', 0)).status).toBe(200);
    const again = await harness.call('POST', '/api/auth/verify-email', { body: { email: 'a@example.com', otp: harness.lastCode('a@example.com') } });
    expect(again.status).toBe(400);
  });

  it('replaces the earlier code on a new registration', async () => {
    const harness = new CoreHarness();
    await harness.call('POST', '/api/auth/register', { body: { email: 'a@example.com' } });
    const first = harness.lastCode('a@example.com');
    await harness.call('POST', '/api/auth/register', { body: { email: 'a@example.com' } });
    const second = harness.lastCode('a@example.com');
    if (first !== second) {
      const old = await harness.call('POST', '/api/auth/verify-email', { body: { email: 'a@example.com', otp: first } });
      expect(old.status).toBe(400);
    }
    const fresh = await harness.call('POST', '/api/auth/verify-email', { body: { email: 'a@example.com', otp: second } });
    expect(fresh.status).toBe(200);
  });

  it('voids the code after 5 wrong attempts (then 429), until a new registration', async () => {
    const harness = new CoreHarness();
    const email = 'a@example.com';
    await harness.call('POST', '/api/auth/register', { body: { email }, ip: '10.0.0.1' });
    const right = harness.lastCode(email);
    const wrong = right === '000000' ? '000001' : '000000';
    for (let attempt = 1; attempt <= 5; attempt++) {
      const response = await harness.call('POST', '/api/auth/verify-email', { body: { email, otp: wrong }, ip: `10.0.1.${attempt}` });
      expect(response.status).toBe(400);
    }
    const voided = await harness.call('POST', '/api/auth/verify-email', { body: { email, otp: right }, ip: '10.0.2.1' });
    expect(voided.status).toBe(429);
    expect(voided.headers['retry-after']).toBe(String(OTP_LIFETIME_MS / 1000));
    expect(voided.body).toEqual({ error: expect.stringContaining('register again') });
    await harness.call('POST', '/api/auth/register', { body: { email }, ip: '10.0.2.2' });
    const renewed = await harness.call('POST', '/api/auth/verify-email', { body: { email, otp: harness.lastCode(email) }, ip: '10.0.2.3' });
    expect(renewed.status).toBe(200);
  });

  it('has no wrong-attempt limit when configured with 0', async () => {
    const harness = new CoreHarness({ maxWrongOtpAttempts: 0 });
    await harness.call('POST', '/api/auth/register', { body: { email: 'a@example.com' }, ip: '10.0.0.1' });
    const right = harness.lastCode('a@example.com');
    const wrong = right === '000000' ? '000001' : '000000';
    for (let attempt = 1; attempt <= 8; attempt++) {
      await harness.call('POST', '/api/auth/verify-email', { body: { email: 'a@example.com', otp: wrong }, ip: `10.0.1.${attempt}` });
    }
    const response = await harness.call('POST', '/api/auth/verify-email', { body: { email: 'a@example.com', otp: right }, ip: '10.0.2.1' });
    expect(response.status).toBe(200);
  });

  it.each([
    ['a 5-digit code', { email: 'a@example.com', otp: '12345' }],
    ['a numeric code', { email: 'a@example.com', otp: 123456 }],
    ['a missing code', { email: 'a@example.com' }],
    ['a missing email', { otp: '123456' }],
    ['an address never registered', { email: 'nobody@example.com', otp: '123456' }],
  ])('rejects %s with 400', async (_case, body) => {
    const response = await new CoreHarness().call('POST', '/api/auth/verify-email', { body });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: expect.any(String) });
  });
});

describe('bearer tokens', () => {
  it('accepts a token 1 ms before its 7 days are up, and answers 401 at 7 days', async () => {
    const harness = new CoreHarness();
    const token = await harness.signIn('a@example.com');
    harness.clock.advance(TOKEN_LIFETIME_MS - 1);
    expect((await harness.call('GET', '/api/player', { token })).status).toBe(200);
    harness.clock.advance(1);
    const expired = await harness.call('GET', '/api/player', { token });
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ error: expect.any(String) });
  });

  it.each([
    ['no Authorization header', {}],
    ['a garbage token', { authorization: 'Bearer not-a-token' }],
    ['another scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['an empty bearer', { authorization: 'Bearer ' }],
  ])('answers 401 for %s', async (_case, headers) => {
    const response = await new CoreHarness().call('GET', '/api/player', { headers });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: expect.any(String) });
  });

  it('keeps an earlier token valid after the same email registers and verifies again', async () => {
    const harness = new CoreHarness();
    const first = await harness.signIn('a@example.com');
    const second = await harness.signIn('a@example.com');
    expect(second).not.toBe(first);
    const [a, b] = await Promise.all([first, second].map((token) => harness.call('GET', '/api/player', { token })));
    expect(a!.status).toBe(200);
    expect((a!.body as { player: { id: string } }).player.id).toBe((b!.body as { player: { id: string } }).player.id);
  });
});
