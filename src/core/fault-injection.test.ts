import { describe, expect, it } from 'vitest';
import { CoreHarness } from '../../test/support/core-harness.js';
import { RATE_LIMITS } from '../spec/limits.js';
import { createMockControl } from '../hosts/mock-control.js';
import { OptionsError } from './options.js';
import { createService } from './service.js';

const withFaults = (...faults: string[]) => new CoreHarness({ faults, faultSeed: 1 });

describe('injected faults, through handle', () => {
  it('a status fault answers before routing with the error envelope naming it, counted in no bucket, and is journaled', async () => {
    const harness = withFaults('GET /api/* 503');
    const response = await harness.call('GET', '/api/player');
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ error: 'Service Unavailable (a fault injected by the mock: rule f1, GET /api/* 503)' });
    expect(response.headers['x-ratelimit-remaining']).toBeUndefined();
    expect(harness.service.store.buckets.size).toBe(0);
    expect(harness.service.journal.latest()).toMatchObject([{ path: '/api/player', status: 503, category: null, fault: ['status 503'] }]);
    // Another method, another path: no rule matches, nothing is injected.
    expect((await harness.call('GET', '/health')).status).toBe(200);
    expect(harness.service.journal.latest(1)).toMatchObject([{ path: '/health', fault: null }]);
  });

  it('a rate-limit fault fills the bucket the request counts in: the usual 429 with Retry-After, and the window stays spent', async () => {
    const harness = withFaults('GET /health 429');
    const limited = await harness.call('GET', '/health');
    expect(limited.status).toBe(429);
    expect(limited.headers).toMatchObject({ 'x-ratelimit-limit': String(RATE_LIMITS.public.limit), 'x-ratelimit-remaining': '0', 'retry-after': '60' });
    expect(limited.body).toEqual({ error: expect.stringContaining('Rate limit exceeded') });
    harness.service.faults.clear();
    expect((await harness.call('GET', '/health')).status).toBe(429);
    expect((await harness.call('GET', '/health', { ip: '198.51.100.7' })).status).toBe(200);
  });

  it('latency delays the answer in real time, whatever the virtual clock', async () => {
    const harness = withFaults('/health latency:60');
    const started = performance.now();
    expect((await harness.call('GET', '/health')).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
    expect(harness.service.journal.latest(1)[0]!.fault).toEqual(['latency 60 ms']);
  });

  it('reset and truncate answer normally and mark the response for the host to cut', async () => {
    const harness = withFaults('GET /health reset', 'POST /api/auth/register truncate');
    expect(await harness.call('GET', '/health')).toMatchObject({ status: 200, cut: 'reset' });
    const registered = await harness.call('POST', '/api/auth/register', { body: { email: 'a@example.com' } });
    expect(registered).toMatchObject({ status: 200, cut: 'truncate' });
    // The request had its effect: the code was delivered, and a retry must cope with that.
    expect(harness.deliveries).toHaveLength(1);
    expect((await harness.call('GET', '/api/player')).cut).toBeUndefined();
  });

  it('never touches the control API, whatever the rule', async () => {
    const harness = withFaults('* * 503', '* * reset');
    const control = createMockControl(harness.service, '127.0.0.1');
    expect((await control.clock()).success).toBe(true);
    expect((await control.faults()).faults).toHaveLength(2);
  });

  it('draws the same faults for the same seed and requests; POST /__mock/faults/seed replays them', async () => {
    const statuses = async (harness: CoreHarness) => {
      const seen: string[] = [];
      for (let i = 0; i < 40; i++) {
        const response = await harness.call('GET', '/health', { ip: `198.51.100.${i}` });
        seen.push(`${response.status}${response.cut ?? ''}`);
      }
      return seen;
    };
    const flaky = ['GET /health 503@0.3', 'GET /health reset@0.3'];
    const first = await statuses(new CoreHarness({ faults: flaky, faultSeed: 42 }));
    expect(first.filter((status) => status !== '200').length).toBeGreaterThan(5);
    expect(await statuses(new CoreHarness({ faults: flaky, faultSeed: 42 }))).toEqual(first);
    expect(await statuses(new CoreHarness({ faults: flaky, faultSeed: 43 }))).not.toEqual(first);

    const harness = new CoreHarness({ faults: flaky, faultSeed: 42 });
    await statuses(harness);
    await createMockControl(harness.service, '127.0.0.1').reseedFaults();
    expect(await statuses(harness)).toEqual(first);
  });

  it('draws a random seed when none is given, and refuses bad rules and seeds when the service is created', () => {
    const { seed } = createService({ version: '1' }).faults;
    expect(Number.isInteger(seed) && seed >= 0 && seed <= 0xffff_ffff).toBe(true);
    expect(() => createService({ version: '1', faults: ['GET /health 418'] })).toThrow(OptionsError);
    expect(() => createService({ version: '1', faults: [{ kind: 'status' }] })).toThrow(/faults\[0\]: a status fault names its status/);
    expect(() => createService({ version: '1', faultSeed: -1 })).toThrow(/faultSeed must be an integer from 0 to 4294967295/);
  });
});
