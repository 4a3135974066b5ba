import { describe, expect, it } from 'vitest';
import { RATE_LIMITS, RATE_LIMIT_WINDOW_MS } from '../../src/spec/limits.js';
import { CoreHarness } from '../support/core-harness.js';

const CAPACITY = 1_000;

describe('reliability: a flood of distinct client addresses', () => {
  it('never gives a spent auth or read bucket back before its window ends; keys past the bound get 503 until a window ends', async () => {
    const harness = new CoreHarness({ bounds: { maxBuckets: CAPACITY } });
    const token = await harness.signIn('alice@example.com', '198.51.100.1');
    for (let i = 0; i < RATE_LIMITS.read.limit; i++) await harness.call('GET', '/api/player', { token });
    const register = () => harness.call('POST', '/api/auth/register', { body: { email: 'bob@example.com' }, ip: '203.0.113.66' });
    for (let i = 0; i < RATE_LIMITS.auth.limit; i++) await register();
    expect((await register()).status).toBe(429);

    const statuses = new Map<number, number>();
    let refusal: Awaited<ReturnType<typeof harness.call>> | undefined;
    for (let i = 0; i < 3 * CAPACITY; i++) {
      const response = await harness.call('GET', '/health', { ip: `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}` });
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (response.status === 503) refusal = response;
    }
    expect(statuses.get(200)! + statuses.get(503)!).toBe(3 * CAPACITY);
    expect(statuses.get(503)).toBeGreaterThan(CAPACITY);
    expect(refusal).toMatchObject({ headers: { 'retry-after': '60' }, body: { error: expect.stringContaining('rate-limit buckets') } });

    harness.clock.advance(RATE_LIMIT_WINDOW_MS - 1);
    expect((await register()).status).toBe(429);
    expect((await harness.call('GET', '/api/player', { token })).status).toBe(429);
    expect((await harness.call('GET', '/health', { ip: '192.0.2.1' })).status).toBe(503);

    harness.clock.advance(1);
    expect((await register()).status).toBe(200);
    expect((await harness.call('GET', '/api/player', { token })).status).toBe(200);
    expect((await harness.call('GET', '/health', { ip: '192.0.2.1' })).status).toBe(200);
  });
});
