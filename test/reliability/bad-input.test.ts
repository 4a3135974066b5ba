import { describe, expect, it } from 'vitest';
import { CoreHarness } from '../support/core-harness.js';

describe('reliability: bad input gets an error envelope, never a 500', () => {
  it('answers 400 to a lone surrogate in an email or an otp', async () => {
    const harness = new CoreHarness();
    for (const [path, rawBody] of [
      ['/api/auth/register', '{"email":"a\\ud800b@example.com"}'],
      ['/api/auth/register', '{"email":"a\\udfffb@example.com"}'],
      ['/api/auth/verify-email', '{"email":"a\\ud800@example.com","otp":"123456"}'],
    ] as const) {
      const response = await harness.call('POST', path, { rawBody, ip: `10.0.0.${rawBody.length}` });
      expect(response.status, rawBody).toBe(400);
      expect(response.body, rawBody).toEqual({ error: 'email must be well-formed Unicode text' });
    }
  });

  it('ignores challengeToken, whatever it holds, while the bot-check is off', async () => {
    const harness = new CoreHarness();
    for (const challengeToken of [42, { nested: true }, 'x'.repeat(5_000), 'a\ud800']) {
      const response = await harness.call('POST', '/api/auth/register', {
        body: { email: 'alice@example.com', challengeToken },
        ip: `10.0.1.${String(challengeToken).length % 250}`,
      });
      expect(response.status).toBe(200);
    }
  });

  it('refuses to move the clock past the dates a response can show', async () => {
    const harness = new CoreHarness();
    const advance = (advanceMs: number) => harness.call('POST', '/__mock/clock', { body: { advanceMs } });
    const refused = await advance(1e300);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: 'body /advanceMs would move the clock past 9999-12-31T23:59:59.999Z' });
    expect((await harness.call('GET', '/health')).status).toBe(200);
    expect((await harness.call('GET', '/__mock/journal')).status).toBe(200);
  });
});
