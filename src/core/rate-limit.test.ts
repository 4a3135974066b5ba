import { describe, expect, it } from 'vitest';
import { RATE_LIMITS, RATE_LIMIT_WINDOW_MS } from '../spec/limits.js';
import { CoreHarness, GAME_ORIGIN, START } from '../../test/support/core-harness.js';

const publicLimit = RATE_LIMITS.public.limit;

describe('fixed windows', () => {
  it('counts down Remaining, then answers 429 with Retry-After until the window started by the first request ends', async () => {
    const harness = new CoreHarness();
    const windowEndSeconds = String(Math.floor((START + RATE_LIMIT_WINDOW_MS) / 1000));
    for (let i = 1; i <= publicLimit; i++) {
      const response = await harness.call('GET', '/health');
      expect(response.status).toBe(200);
      expect(response.headers).toMatchObject({
        'x-ratelimit-limit': String(publicLimit),
        'x-ratelimit-remaining': String(publicLimit - i),
        'x-ratelimit-reset': windowEndSeconds,
      });
    }
    harness.clock.advance(RATE_LIMIT_WINDOW_MS - 1);
    const limited = await harness.call('GET', '/health');
    expect(limited.status).toBe(429);
    expect(limited.headers).toMatchObject({ 'retry-after': '1', 'x-ratelimit-remaining': '0' });
    expect(limited.body).toEqual({ error: expect.stringContaining('Rate limit') });

    harness.clock.advance(1);
    const rolled = await harness.call('GET', '/health');
    expect(rolled.status).toBe(200);
    expect(rolled.headers['x-ratelimit-remaining']).toBe(String(publicLimit - 1));
    expect(rolled.headers['x-ratelimit-reset']).toBe(String(Math.floor((START + 2 * RATE_LIMIT_WINDOW_MS) / 1000)));
  });

  it('aligns windows to clock minutes when rateLimitWindows is clock-minute', async () => {
    const harness = new CoreHarness({ rateLimitWindows: 'clock-minute' });
    harness.clock.advance(RATE_LIMIT_WINDOW_MS / 2);
    const first = await harness.call('GET', '/health');
    expect(first.headers['x-ratelimit-reset']).toBe(String((START + RATE_LIMIT_WINDOW_MS) / 1000));
    for (let i = 1; i < publicLimit; i++) await harness.call('GET', '/health');
    const limited = await harness.call('GET', '/health');
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe(String(RATE_LIMIT_WINDOW_MS / 2000));
    harness.clock.advance(RATE_LIMIT_WINDOW_MS / 2);
    const rolled = await harness.call('GET', '/health');
    expect(rolled.status).toBe(200);
    expect(rolled.headers['x-ratelimit-reset']).toBe(String((START + 2 * RATE_LIMIT_WINDOW_MS) / 1000));
  });

  it('rounds Retry-After up to whole seconds', async () => {
    const harness = new CoreHarness();
    for (let i = 0; i < publicLimit; i++) await harness.call('GET', '/health');
    harness.clock.advance(500);
    expect((await harness.call('GET', '/health')).headers['retry-after']).toBe('60');
  });

  it('keeps the window of the first request: a later request does not move Reset', async () => {
    const harness = new CoreHarness();
    const first = await harness.call('GET', '/health');
    harness.clock.advance(30_000);
    const later = await harness.call('GET', '/health');
    expect(later.headers['x-ratelimit-reset']).toBe(first.headers['x-ratelimit-reset']);
  });
});

describe('auth bucket', () => {
  it('is one bucket per IP shared by register and verify, 5 per minute', async () => {
    const harness = new CoreHarness();
    const register = () => harness.call('POST', '/api/auth/register', { body: { email: 'a@example.com' }, ip: '10.0.0.1' });
    const verify = () => harness.call('POST', '/api/auth/verify-email', { body: { email: 'a@example.com', otp: '000000' }, ip: '10.0.0.1' });
    const remaining = [];
    for (const call of [register, verify, register, verify, register]) remaining.push((await call()).headers['x-ratelimit-remaining']);
    expect(remaining).toEqual(['4', '3', '2', '1', '0']);
    expect((await verify()).status).toBe(429);
    expect((await harness.call('POST', '/api/auth/register', { body: { email: 'a@example.com' }, ip: '10.0.0.2' })).status).toBe(200);
  });

  it('limits game origins too, with the headers', async () => {
    const harness = new CoreHarness();
    for (let i = 0; i < RATE_LIMITS.auth.limit; i++) {
      const response = await harness.call('POST', '/api/auth/register', { body: { email: 'a@example.com' }, origin: GAME_ORIGIN });
      expect(response.headers['x-ratelimit-limit']).toBe(String(RATE_LIMITS.auth.limit));
    }
    const limited = await harness.call('POST', '/api/auth/register', { body: { email: 'a@example.com' }, origin: GAME_ORIGIN });
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('60');
  });

  it('counts requests it rejects as bad input', async () => {
    const harness = new CoreHarness();
    for (let i = 0; i < RATE_LIMITS.auth.limit; i++) await harness.call('POST', '/api/auth/register', { rawBody: '{' });
    expect((await harness.call('POST', '/api/auth/register', { body: { email: 'a@example.com' } })).status).toBe(429);
  });
});

describe('per-player buckets', () => {
  it('gives each player their own read bucket, even on one IP', async () => {
    const harness = new CoreHarness();
    const alice = await harness.signIn('alice@example.com');
    const bob = await harness.signIn('bob@example.com');
    for (let i = 0; i < RATE_LIMITS.read.limit; i++) await harness.call('GET', '/api/player', { token: alice });
    expect((await harness.call('GET', '/api/player', { token: alice })).status).toBe(429);
    const bobs = await harness.call('GET', '/api/player', { token: bob });
    expect(bobs.status).toBe(200);
    expect(bobs.headers['x-ratelimit-remaining']).toBe(String(RATE_LIMITS.read.limit - 1));
  });

  it('keeps gameplay apart from reads', async () => {
    const harness = new CoreHarness();
    const token = await harness.signIn('alice@example.com');
    await harness.call('GET', '/api/player', { token });
    const ship = await harness.call('POST', '/api/player/ship', { token, body: { name: 'Nomad' } });
    expect(ship.headers['x-ratelimit-remaining']).toBe(String(RATE_LIMITS.gameplay.limit - 1));
  });
});

describe('game-origin exemption', () => {
  it('neither counts nor labels public, read and gameplay requests from a game origin', async () => {
    const harness = new CoreHarness();
    const token = await harness.signIn('alice@example.com');
    for (let i = 0; i < publicLimit + 5; i++) {
      const responses = await Promise.all([
        harness.call('GET', '/health', { origin: GAME_ORIGIN }),
        harness.call('GET', '/api/player', { token, origin: GAME_ORIGIN }),
      ]);
      for (const response of responses) {
        expect(response.status).toBe(200);
        expect(response.headers['x-ratelimit-limit']).toBeUndefined();
      }
    }
    expect((await harness.call('GET', '/health')).headers['x-ratelimit-remaining']).toBe(String(publicLimit - 1));
    expect((await harness.call('GET', '/api/player', { token })).headers['x-ratelimit-remaining']).toBe(String(RATE_LIMITS.read.limit - 1));
  });

  it('requires the exact origin', async () => {
    const harness = new CoreHarness({ corsOrigins: [] });
    const response = await harness.call('GET', '/health', { origin: `${GAME_ORIGIN}:8080` });
    expect(response.headers['x-ratelimit-limit']).toBe(String(publicLimit));
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('unauthenticated and unroutable requests', () => {
  it('count in the public bucket by IP', async () => {
    const harness = new CoreHarness();
    const unauthorized = await harness.call('GET', '/api/player');
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers['x-ratelimit-remaining']).toBe(String(publicLimit - 1));
    expect((await harness.call('GET', '/nowhere')).headers['x-ratelimit-remaining']).toBe(String(publicLimit - 2));
    expect((await harness.call('DELETE', '/health')).headers['x-ratelimit-remaining']).toBe(String(publicLimit - 3));
  });

  it('answer 429 instead of 401 once the public bucket is empty', async () => {
    const harness = new CoreHarness();
    for (let i = 0; i < publicLimit; i++) await harness.call('GET', '/health');
    const response = await harness.call('GET', '/api/player', { token: 'garbage' });
    expect(response.status).toBe(429);
  });
});
