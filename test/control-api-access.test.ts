import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { systemClock, VirtualClock } from '../src/core/clock.js';
import type { ServiceRequest } from '../src/core/http.js';
import type { ServiceOptions } from '../src/core/options.js';
import { createService } from '../src/core/service.js';
import { header } from './support/http.js';
import { json, useControlServers } from './support/control-server.js';

const startServer = useControlServers();

/** An IPv4 address of this machine that is not loopback: connecting to it makes the peer non-loopback. */
const EXTERNAL_ADDRESS = Object.values(networkInterfaces())
  .flat()
  .find((address) => address !== undefined && address.family === 'IPv4' && !address.internal)?.address;

const LOOPBACK_ONLY = 'The control API answers loopback clients only; start the mock with --control-public to open it';

function inProcess(options: Partial<ServiceOptions> = {}) {
  const service = createService({ version: '0.1.0', clock: new VirtualClock({ startMs: Date.UTC(2030, 0, 1), frozen: true }), onOtp: () => {}, ...options });
  const send = (method: string, path: string, fields: Partial<ServiceRequest> = {}) =>
    service.handle({ method, path, headers: {}, ip: fields.peer ?? '127.0.0.1', ...fields });
  return { service, send };
}

describe('control API: never rate limited, never journaled', () => {
  it('answers 100 GET /__mock/clock in a row with 200 and leaves the public bucket alone', async () => {
    const mock = await startServer();
    const statuses = new Set<number>();
    for (let i = 0; i < 100; i++) {
      const response = await mock.get('/__mock/clock');
      statuses.add(response.status);
      expect(header(response, 'x-ratelimit-remaining')).toBeUndefined();
    }
    for (let i = 0; i < 10; i++) await mock.post('/__mock/clock', { advanceMs: 1 });
    expect([...statuses]).toEqual([200]);
    expect(json(await mock.get('/__mock/buckets'))).toEqual({ success: true, buckets: [], nextCursor: null });
    expect(json(await mock.get('/__mock/journal'))).toEqual({ success: true, entries: [], nextCursor: null });
    const health = await mock.get('/health');
    expect(header(health, 'x-ratelimit-remaining')).toBe('59');
  });

  it('stays open while the caller IP is rate limited on every public category', async () => {
    const mock = await startServer();
    await mock.post('/__mock/scenarios/rate-limited', { category: 'public', key: '127.0.0.1' });
    await mock.post('/__mock/scenarios/rate-limited', { category: 'auth', key: '127.0.0.1' });
    expect((await mock.get('/health')).status).toBe(429);
    expect((await mock.get('/__mock/capabilities')).status).toBe(200);
    expect((await mock.post('/__mock/reset', { parts: ['buckets'] })).status).toBe(200);
    expect((await mock.get('/health')).status).toBe(200);
  });
});

describe('control API: loopback callers only, unless public', () => {
  it('answers 403 to a non-loopback transport peer, whatever the route', async () => {
    const { send } = inProcess();
    for (const [method, path] of [
      ['GET', '/__mock/capabilities'],
      ['POST', '/__mock/reset'],
      ['GET', '/__mock/nope'],
      ['PUT', '/__mock/clock'],
    ] as const) {
      const response = await send(method, path, { peer: '203.0.113.9' });
      expect({ method, path, status: response.status, body: response.body }).toEqual({ method, path, status: 403, body: { error: LOOPBACK_ONLY } });
    }
    // A loopback client IP (as a trusted X-Forwarded-For would give) does not unlock it: only the peer counts.
    const forwarded = await send('GET', '/__mock/capabilities', { ip: '127.0.0.1', peer: '203.0.113.9', headers: { 'x-forwarded-for': '127.0.0.1' } });
    expect(forwarded.status).toBe(403);
    for (const peer of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1', undefined]) {
      const response = await send('GET', '/__mock/capabilities', peer === undefined ? {} : { peer });
      expect({ peer, status: response.status }).toEqual({ peer, status: 200 });
    }
    for (const peer of ['10.0.0.1', '::ffff:10.0.0.1', '128.0.0.1', 'fe80::1']) {
      expect({ peer, status: (await send('GET', '/__mock/clock', { peer })).status }).toEqual({ peer, status: 403 });
    }
  });

  it.skipIf(EXTERNAL_ADDRESS === undefined)('over HTTP to a non-loopback address: 403, even with X-Forwarded-For 127.0.0.1 and trustProxy', async () => {
    const mock = await startServer({ host: EXTERNAL_ADDRESS!, trustProxy: true });
    const direct = await mock.get('/__mock/clock');
    expect(direct.status).toBe(403);
    expect(direct.body).toEqual({ error: LOOPBACK_ONLY });
    expect(header(direct, 'x-ratelimit-limit')).toBeUndefined();
    expect((await mock.post('/__mock/reset', {}, { 'x-forwarded-for': '127.0.0.1' })).status).toBe(403);
    expect((await mock.get('/health')).status).toBe(200);

    const open = await startServer({ host: EXTERNAL_ADDRESS!, service: { control: { public: true } } });
    expect((await open.get('/__mock/clock')).status).toBe(200);
  });

  it('with control.public answers any peer', async () => {
    const { send } = inProcess({ control: { public: true } });
    const response = await send('GET', '/__mock/clock', { peer: '203.0.113.9' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: true, nowMs: Date.UTC(2030, 0, 1) });
  });

  it('over HTTP with trustProxy, X-Forwarded-For changes the public client IP but not the control answer', async () => {
    const mock = await startServer({ trustProxy: true });
    const forwarded = { 'x-forwarded-for': '203.0.113.9' };
    expect((await mock.get('/__mock/capabilities', forwarded)).status).toBe(200);
    expect((await mock.post('/__mock/players', { email: 'a@example.com' }, forwarded)).status).toBe(200);
    await mock.get('/health', forwarded);
    expect(json<{ buckets: { key: string }[] }>(await mock.get('/__mock/buckets')).buckets.map((bucket) => bucket.key)).toEqual(['203.0.113.9']);
  });
});

describe('control API: switched off, or without a movable clock', () => {
  it('with control.enabled false, /__mock paths are plain unknown paths: 404 envelope, counted and journaled', async () => {
    const mock = await startServer({ service: { control: { enabled: false } } });
    const capabilities = await mock.get('/__mock/capabilities');
    expect(capabilities.status).toBe(404);
    expect(capabilities.body).toEqual({ error: 'No route for /__mock/capabilities' });
    expect(header(capabilities, 'x-ratelimit-remaining')).toBe('59');
    const reset = await mock.post('/__mock/reset', {});
    expect(reset.status).toBe(404);
    expect(header(reset, 'x-ratelimit-remaining')).toBe('58');
    expect(mock.service.journal.latest().map((entry) => `${entry.method} ${entry.path} ${entry.status}`)).toEqual([
      'POST /__mock/reset 404',
      'GET /__mock/capabilities 404',
    ]);
  });

  it('on a clock it cannot move, says clockControl false and answers the clock routes 409', async () => {
    const { send } = inProcess({ clock: systemClock });
    const capabilities = await send('GET', '/__mock/capabilities');
    expect(capabilities.body).toMatchObject({ capabilities: { clockControl: false } });
    const clock = await send('GET', '/__mock/clock');
    expect(clock.status).toBe(409);
    expect(clock.body).toEqual({ error: 'This service was created with a clock the control API cannot move' });
    const reset = await send('POST', '/__mock/reset');
    expect(reset.body).toEqual({ success: true, reset: ['buckets', 'players', 'outbox', 'journal', 'clock'] });
  });
});
