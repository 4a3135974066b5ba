import { describe, expect, it } from 'vitest';
import { CoreHarness, GAME_ORIGIN } from '../../test/support/core-harness.js';
import { MAX_BODY_BYTES } from './body.js';

describe('routing', () => {
  it('serves health without authentication', async () => {
    const response = await new CoreHarness().call('GET', '/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, status: 'ok', version: '1.2.3' });
  });

  it.each(['/', '/api', '/health/', '/api/players', '/HEALTH', '/api/player/ship/1'])('answers 404 with an error envelope for %s', async (path) => {
    const response = await new CoreHarness().call('GET', path);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: expect.stringContaining(path) });
  });

  it.each([
    ['POST', '/health', 'GET, HEAD'],
    ['GET', '/api/auth/register', 'POST'],
    ['DELETE', '/api/player', 'GET, HEAD'],
    ['PUT', '/api/player/ship', 'POST, GET, HEAD'],
    ['HEAD', '/api/auth/register', 'POST'],
  ])('answers 405 with Allow for %s %s', async (method, path, allow) => {
    const response = await new CoreHarness().call(method, path);
    expect(response.status).toBe(405);
    expect(response.headers['allow']).toBe(allow);
    expect(response.body).toEqual({ error: expect.stringContaining(allow) });
  });
});

describe('request bodies', () => {
  const register = (harness: CoreHarness, rawBody: string | undefined, headers: Record<string, string> = {}) =>
    harness.call('POST', '/api/auth/register', { ...(rawBody === undefined ? {} : { rawBody }), headers, ip: crypto.randomUUID() });

  it.each([
    ['no body', undefined, 'JSON object'],
    ['malformed JSON', '{"email":', 'not valid JSON'],
    ['an array', '["a@example.com"]', 'JSON object'],
    ['a string', '"a@example.com"', 'JSON object'],
    ['null', 'null', 'JSON object'],
  ])('rejects %s with 400', async (_case, rawBody, message) => {
    const response = await register(new CoreHarness(), rawBody);
    expect(response.status).toBe(400);
    expect((response.body as { error: string }).error).toContain(message);
  });

  it('rejects bytes that are not UTF-8 with 400', async () => {
    const harness = new CoreHarness();
    const response = await harness.service.handle({
      method: 'POST',
      path: '/api/auth/register',
      headers: { 'content-type': 'application/json' },
      body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
      ip: '10.0.0.1',
    });
    expect(response.status).toBe(400);
  });

  it('rejects a non-JSON Content-Type with 400, and accepts JSON with a charset', async () => {
    const harness = new CoreHarness();
    expect((await register(harness, '{"email":"a@example.com"}', { 'content-type': 'text/plain' })).status).toBe(400);
    expect((await register(harness, '{"email":"a@example.com"}', { 'content-type': 'application/json; charset=utf-8' })).status).toBe(200);
  });

  it('accepts a body of exactly 64 KiB and answers 413 one byte past it', async () => {
    const harness = new CoreHarness();
    const padded = (size: number) => {
      const prefix = '{"email":"a@example.com","pad":"';
      return `${prefix}${'x'.repeat(size - prefix.length - 2)}"}`;
    };
    expect((await register(harness, padded(MAX_BODY_BYTES))).status).toBe(200);
    const tooLarge = await register(harness, padded(MAX_BODY_BYTES + 1));
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body).toEqual({ error: expect.stringContaining(String(MAX_BODY_BYTES)) });
  });
});

describe('CORS for game origins', () => {
  it('answers a preflight with 204 and the allowed methods and headers, without counting it', async () => {
    const harness = new CoreHarness();
    const preflight = await harness.call('OPTIONS', '/api/player/ship', { origin: GAME_ORIGIN, headers: { 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(204);
    expect(preflight.body).toBeUndefined();
    expect(preflight.headers).toMatchObject({
      'access-control-allow-origin': GAME_ORIGIN,
      'access-control-allow-methods': 'POST',
      'access-control-allow-headers': 'Authorization, Content-Type',
      vary: 'Origin',
    });
    expect(preflight.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('echoes the origin and exposes exactly the spec headers each response carries', async () => {
    const harness = new CoreHarness();
    const exposed = (response: { headers: Record<string, string> }) => response.headers['access-control-expose-headers'];
    const register = () => harness.call('POST', '/api/auth/register', { origin: GAME_ORIGIN, body: { email: 'a@example.com' } });
    const registered = await register();
    expect(registered.headers['access-control-allow-origin']).toBe(GAME_ORIGIN);
    expect(exposed(registered)).toBe('x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset');
    for (let i = 1; i < 5; i++) await register();
    expect(exposed(await register())).toBe('x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, retry-after');

    const token = await harness.signIn('pilot@example.com');
    const ship = await harness.call('POST', '/api/player/ship', { origin: GAME_ORIGIN, token, body: { name: 'Nomad' } });
    expect(exposed(ship)).toBe('x-actionpoints-remaining');
    const health = await harness.call('GET', '/health', { origin: GAME_ORIGIN });
    expect(health.headers['access-control-allow-origin']).toBe(GAME_ORIGIN);
    expect(exposed(health)).toBeUndefined();
  });

  it('exposes NextRefill to a game client once no points remain', async () => {
    const harness = new CoreHarness({ actionPoints: { start: 0 } });
    const token = await harness.signIn('pilot@example.com');
    const ship = await harness.call('POST', '/api/player/ship', { origin: GAME_ORIGIN, token, body: { name: 'Nomad' } });
    expect(ship.headers['access-control-expose-headers']).toBe('x-actionpoints-remaining, x-actionpoints-nextrefill');
  });

  it('with CORS origins listed, gives other origins no CORS headers and treats their plain OPTIONS as a method not allowed', async () => {
    const harness = new CoreHarness({ corsOrigins: ['http://localhost:5173'] });
    const response = await harness.call('OPTIONS', '/api/player', { origin: 'http://evil.test' });
    expect(response.status).toBe(405);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    expect(response.headers['vary']).toBe('Origin');
  });
});

describe('unexpected exceptions', () => {
  it('answer 500 with an error envelope, are reported, and the service keeps serving', async () => {
    const reported: unknown[] = [];
    const harness = new CoreHarness({
      onOtp: () => {
        throw new Error('mail relay down');
      },
      onError: (error) => reported.push(error),
    });
    const failed = await harness.call('POST', '/api/auth/register', { body: { email: 'a@example.com' } });
    expect(failed.status).toBe(500);
    expect(failed.body).toEqual({ error: 'Internal server error' });
    expect(reported).toEqual([expect.objectContaining({ message: 'mail relay down' })]);
    expect((await harness.call('GET', '/health')).status).toBe(200);
  });
});
