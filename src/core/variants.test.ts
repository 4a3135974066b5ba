import { describe, expect, it } from 'vitest';
import { CoreHarness, GAME_ORIGIN, START } from '../../test/support/core-harness.js';
import { HEADERS } from '../spec/limits.js';
import { SPEC_CHOICES, type VariantName } from '../spec/variants.js';
import { OptionsError } from './options.js';

/** Each variant through `handle`, beside the default it replaces: what a client sees change, and nothing else. */

const played = (...variants: VariantName[]) => new CoreHarness({ variants });
const body = (response: { body: unknown }) => response.body as Record<string, unknown>;
const WINDOW_END = START + 60_000;

async function spendAuthBucket(harness: CoreHarness, ip: string) {
  for (let sent = 0; sent < 5; sent++) await harness.call('POST', '/api/auth/verify-email', { body: {}, ip });
  return harness.call('POST', '/api/auth/verify-email', { body: {}, ip });
}

describe('rate-limit headers', () => {
  it.each([
    [[], String(WINDOW_END / 1000)],
    [['reset-epoch-milliseconds'], String(WINDOW_END)],
    [['reset-seconds-remaining'], '60'],
  ] as const)('%j: X-RateLimit-Reset %s', async (variants, reset) => {
    expect((await played(...variants).call('GET', '/health')).headers[HEADERS.rateLimitReset]).toBe(reset);
  });

  it.each([
    [[], '60'],
    [['retry-after-milliseconds'], '60000'],
    [['retry-after-minutes'], '1'],
  ] as const)('%j: Retry-After %s on a spent bucket', async (variants, retryAfter) => {
    expect((await spendAuthBucket(played(...variants), '10.0.0.1')).headers[HEADERS.retryAfter]).toBe(retryAfter);
  });

  it('windows-on-clock-minutes: a window opened 20 s into a minute ends with that minute', async () => {
    const harness = played('windows-on-clock-minutes');
    harness.clock.set(START + 20_000);
    expect((await harness.call('GET', '/health')).headers[HEADERS.rateLimitReset]).toBe(String(WINDOW_END / 1000));
    expect((await new CoreHarness().call('GET', '/health')).headers[HEADERS.rateLimitReset]).toBe(String(WINDOW_END / 1000));
  });

  it('ratelimit-headers-on-exempt: a game-origin read shows a full bucket, and counts in none', async () => {
    const harness = played('ratelimit-headers-on-exempt');
    for (let sent = 0; sent < 3; sent++) {
      const response = await harness.call('GET', '/health', { origin: GAME_ORIGIN });
      expect(response.headers[HEADERS.rateLimitRemaining]).toBe('60');
    }
    expect((await new CoreHarness().call('GET', '/health', { origin: GAME_ORIGIN })).headers[HEADERS.rateLimitRemaining]).toBeUndefined();
  });
});

describe('statuses the spec does not show', () => {
  it.each([
    [[], 400],
    [['wrong-code-401'], 401],
    [['wrong-code-422'], 422],
  ] as const)('%j: a wrong code answers %i, and so does a used one', async (variants, status) => {
    const harness = played(...variants);
    await harness.call('POST', '/api/auth/register', { body: { email: 'a@example.com' } });
    const code = harness.lastCode('a@example.com');
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    expect((await harness.call('POST', '/api/auth/verify-email', { body: { email: 'a@example.com', otp: wrong } })).status).toBe(status);
    expect((await harness.call('POST', '/api/auth/verify-email', { body: { email: 'a@example.com', otp: code } })).status).toBe(200);
    expect((await harness.call('POST', '/api/auth/verify-email', { body: { email: 'a@example.com', otp: code } })).status).toBe(status);
  });

  it.each([
    [[], 400],
    [['disposable-403'], 403],
    [['disposable-422'], 422],
  ] as const)('%j: a disposable address answers %i', async (variants, status) => {
    expect((await played(...variants).call('POST', '/api/auth/register', { body: { email: 'a@mailinator.com' } })).status).toBe(status);
  });

  it.each([
    [[], 403],
    [['unverified-ship-400'], 400],
    [['unverified-ship-422'], 422],
  ] as const)('%j: an unverified player creating a ship answers %i', async (variants, status) => {
    const harness = played(...variants);
    const created = await harness.service.handle({
      method: 'POST',
      path: '/__mock/scenarios/unverified-player',
      headers: { 'content-type': 'application/json' },
      body: new TextEncoder().encode('{"email":"u@example.com"}'),
      ip: '127.0.0.1',
    });
    const token = (created.body as { authToken: string }).authToken;
    expect((await harness.call('POST', '/api/player/ship', { token, body: { name: 'Nomad' } })).status).toBe(status);
  });
});

describe('codes and tokens', () => {
  it('unlimited-wrong-codes: the sixth wrong code is still only wrong', async () => {
    const wrongCodes = async (harness: CoreHarness) => {
      await harness.call('POST', '/api/auth/register', { body: { email: 'a@example.com' }, ip: '10.0.0.2' });
      const answers: number[] = [];
      for (let attempt = 0; attempt < 6; attempt++)
        answers.push(
          (await harness.call('POST', '/api/auth/verify-email', { body: { email: 'a@example.com', otp: '000000' }, ip: `10.1.0.${attempt}` })).status,
        );
      return answers;
    };
    expect((await wrongCodes(played('unlimited-wrong-codes'))).at(-1)).toBe(400);
    expect((await wrongCodes(new CoreHarness())).at(-1)).toBe(429);
  });

  it('reregistration-revokes-token: the token stops working once the address registers again; the new code signs in', async () => {
    for (const [harness, afterRegistering] of [
      [played('reregistration-revokes-token'), 401],
      [new CoreHarness(), 200],
    ] as const) {
      const token = await harness.signIn('a@example.com');
      await harness.call('POST', '/api/auth/register', { body: { email: 'a@example.com' }, ip: '10.0.0.3' });
      expect((await harness.call('GET', '/api/player', { token })).status).toBe(afterRegistering);
      const renewed = await harness.call('POST', '/api/auth/verify-email', {
        body: { email: 'a@example.com', otp: harness.lastCode('a@example.com') },
        ip: '10.0.0.3',
      });
      expect((await harness.call('GET', '/api/player', { token: body(renewed)['authToken'] as string })).status).toBe(200);
    }
  });

  it('expires-at-without-milliseconds: expiresAt ends in :SSZ', async () => {
    const harness = played('expires-at-without-milliseconds');
    await harness.call('POST', '/api/auth/register', { body: { email: 'a@example.com' } });
    const verified = await harness.call('POST', '/api/auth/verify-email', { body: { email: 'a@example.com', otp: harness.lastCode('a@example.com') } });
    expect(body(verified)['expiresAt']).toBe('2026-11-28T10:00:00Z');
  });
});

describe('bodies and routes', () => {
  it('player-fields-flat: the player fields beside success', async () => {
    const harness = played('player-fields-flat');
    const token = await harness.signIn('a@example.com');
    expect(body(await harness.call('GET', '/api/player', { token }))).toMatchObject({ success: true, email: 'a@example.com', emailVerified: true });
  });

  it('health-without-success and extra-body-fields', async () => {
    expect(body(await played('health-without-success').call('GET', '/health'))).toEqual({ status: 'ok', version: '1.2.3' });
    const tagged = body(await played('extra-body-fields').call('GET', '/nowhere'));
    expect(tagged).toMatchObject({ error: 'No route for /nowhere', requestId: expect.any(String) });
  });

  it('health-any-method: POST /health answers 200, a preflight still 204', async () => {
    const harness = played('health-any-method');
    expect((await harness.call('POST', '/health')).status).toBe(200);
    expect((await harness.call('OPTIONS', '/health', { origin: GAME_ORIGIN })).status).toBe(204);
    expect((await new CoreHarness().call('POST', '/health')).status).toBe(405);
  });

  it('auth-before-routing: an unknown path answers 401 without a valid token, 404 with one', async () => {
    const harness = played('auth-before-routing');
    const token = await harness.signIn('a@example.com');
    expect((await harness.call('GET', '/nowhere')).status).toBe(401);
    expect((await harness.call('GET', '/nowhere', { token })).status).toBe(404);
    expect((await harness.call('POST', '/health')).status).toBe(405);
  });

  it('unauthorized-not-counted: a 401 carries no X-RateLimit-* and leaves the public bucket alone', async () => {
    const harness = played('unauthorized-not-counted');
    const refused = await harness.call('GET', '/api/player', { ip: '10.0.0.4' });
    expect(refused.status).toBe(401);
    expect(refused.headers[HEADERS.rateLimitRemaining]).toBeUndefined();
    expect((await harness.call('GET', '/health', { ip: '10.0.0.4' })).headers[HEADERS.rateLimitRemaining]).toBe('59');
  });

  it('ship-payload-galaxy: {galaxyId, shipName} creates the ship; a payload without them answers 400 before the verification check', async () => {
    const harness = played('ship-payload-galaxy');
    const token = await harness.signIn('a@example.com');
    expect((await harness.call('POST', '/api/player/ship', { token, body: { name: 'Nomad' } })).status).toBe(400);
    const created = await harness.call('POST', '/api/player/ship', { token, body: { galaxyId: 1, shipName: 'Nomad' } });
    expect(body(created)).toMatchObject({ success: true, ship: { name: 'Nomad' } });
  });

  it('ship-payload-name: only {name} of 1 to 32 characters creates the ship; the default takes any object', async () => {
    const harness = played('ship-payload-name');
    const token = await harness.signIn('a@example.com');
    expect((await harness.call('POST', '/api/player/ship', { token, body: { shipName: 'Nomad' } })).status).toBe(400);
    expect(body(await harness.call('POST', '/api/player/ship', { token, body: { name: 'Nomad' } }))).toMatchObject({ success: true, ship: { name: 'Nomad' } });
    const lenient = new CoreHarness();
    const other = await lenient.signIn('b@example.com');
    expect((await lenient.call('POST', '/api/player/ship', { token: other, body: { shipName: 'Nomad' } })).status).toBe(200);
  });

  it('nextrefill-in-minutes: NextRefill in minutes when no point is left', async () => {
    const harness = played('nextrefill-in-minutes');
    const token = await harness.signIn('a@example.com');
    await harness.service.handle({
      method: 'PUT',
      path: '/__mock/players/a%40example.com/action-points',
      headers: { 'content-type': 'application/json' },
      body: new TextEncoder().encode('{"points":0}'),
      ip: '127.0.0.1',
    });
    const response = await harness.call('POST', '/api/player/ship', { token, body: { name: 'Nomad' } });
    expect(response.headers[HEADERS.actionPointsNextRefill]).toBe('1');
  });
});

describe('choosing', () => {
  it('every variant of src/spec/variants.ts is played by a test above', async () => {
    const source = await import('node:fs').then((fs) => fs.readFileSync(new URL(import.meta.url), 'utf8'));
    const untested = SPEC_CHOICES.flatMap((choice) => choice.variants.map((variant) => variant.name)).filter(
      (name) => name !== 'client-ip-cf-connecting-ip' && !source.includes(`'${name}'`),
    );
    expect(untested).toEqual([]);
  });

  it('a service refuses an unknown variant at creation, and switches variants through the control API', async () => {
    expect(() => new CoreHarness({ variants: ['no-such-variant'] })).toThrow(OptionsError);
    const harness = new CoreHarness();
    const put = (variants: string[]) =>
      harness.service.handle({
        method: 'PUT',
        path: '/__mock/variants',
        headers: { 'content-type': 'application/json' },
        body: new TextEncoder().encode(JSON.stringify({ variants })),
        ip: '127.0.0.1',
      });
    expect(body(await put(['random:5']))).toMatchObject({ success: true, seed: 5 });
    expect((await put(['wrong-code-401', 'wrong-code-422'])).status).toBe(400);
    await put(['health-without-success']);
    expect(body(await harness.call('GET', '/health'))['success']).toBeUndefined();
    await put([]);
    expect(body(await harness.call('GET', '/health'))['success']).toBe(true);
  });
});
