import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/core/clock.js';
import { OTP_LIFETIME_MS, RATE_LIMITS } from '../src/spec/limits.js';
import { createMswMock, type MswMockOptions } from '../src/hosts/msw.js';
import { MockControlError } from '../src/hosts/mock-control.js';
import { START_MS } from './support/server.js';

const API = 'https://api.game.test';
const TRUSTING_API = 'https://trusting.game.test';

const mockOptions = (baseUrl: string, extra: Partial<MswMockOptions> = {}): MswMockOptions => ({
  baseUrl,
  clock: new ManualClock(START_MS),
  onOtp: () => {},
  ...extra,
});

const PAGE = 'http://localhost:5173';
const PAGE_API = 'https://page-api.game.test';

const mock = createMswMock(mockOptions(API, { defaultIp: '10.1.1.1' }));
/** As startMockWorker makes it in a browser: the page's origin is a game origin, and requests reach the worker without Origin. */
const pageMock = createMswMock(mockOptions(PAGE_API, { pageOrigin: PAGE, gameOrigins: [PAGE] }));
const trusting = createMswMock(mockOptions(TRUSTING_API, { trustForwardedFor: true }));
const msw = setupServer(...mock.handlers, ...trusting.handlers, ...pageMock.handlers);

/** A real server on loopback: whatever reaches it was not intercepted. */
let realServer: Server;
let realOrigin: string;

beforeAll(async () => {
  realServer = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' }).end(`real ${request.url}`);
  });
  await new Promise<void>((resolve) => realServer.listen(0, '127.0.0.1', resolve));
  realOrigin = `http://127.0.0.1:${(realServer.address() as AddressInfo).port}`;
  msw.listen({ onUnhandledFrame: 'bypass' });
});

afterAll(async () => {
  msw.close();
  await new Promise((resolve) => realServer.close(resolve));
});

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('the msw host under setupServer', () => {
  it('signs a client in with the code from control.latestOtp, then serves its player and ship', async () => {
    await mock.control.reset();
    const email = 'pilot@example.com';
    const registered = await post(`${API}/api/auth/register`, { email });
    expect(registered.status).toBe(200);
    expect(registered.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(registered.headers.get('x-ratelimit-limit')).toBe(String(RATE_LIMITS.auth.limit));
    expect(registered.headers.get('x-ratelimit-remaining')).toBe('4');

    const verified = await post(`${API}/api/auth/verify-email`, { email, otp: await mock.control.latestOtp(email) });
    expect(verified.status).toBe(200);
    expect(verified.headers.get('x-ratelimit-remaining')).toBe('3');
    const { authToken } = (await verified.json()) as { authToken: string };
    const bearer = { authorization: `Bearer ${authToken}` };

    const player = await fetch(`${API}/api/player`, { headers: bearer });
    expect(await player.json()).toMatchObject({ success: true, player: { email, emailVerified: true, ship: null } });
    const ship = await post(`${API}/api/player/ship`, { name: 'Nomad' }, bearer);
    expect(ship.status).toBe(200);
    expect(await ship.json()).toMatchObject({ success: true, ship: { name: 'Nomad' } });
    expect(ship.headers.get('x-actionpoints-remaining')).toBe('60');
  });

  it('expires a code once control.advanceClock passes its lifetime', async () => {
    await mock.control.reset();
    const email = 'late@example.com';
    await post(`${API}/api/auth/register`, { email });
    const code = await mock.control.latestOtp(email);
    const issuedAt = await mock.control.now();
    const moved = await mock.control.advanceClock(OTP_LIFETIME_MS);
    expect(moved).toEqual({ success: true, now: new Date(issuedAt + OTP_LIFETIME_MS).toISOString(), nowMs: issuedAt + OTP_LIFETIME_MS, frozen: true });
    const late = await post(`${API}/api/auth/verify-email`, { email, otp: code });
    expect(late.status).toBe(400);
    expect(await late.json()).toEqual({ error: expect.any(String) });
    expect(await mock.control.outbox(email)).toMatchObject([{ code, state: 'expired' }]);
  });

  it('answers unknown paths under the base URL with the 404 envelope, and lets other origins through', async () => {
    const unknown = await fetch(`${API}/nowhere?x=1`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'No route for /nowhere' });
    const elsewhere = await fetch(`${realOrigin}/health`);
    expect(await elsewhere.text()).toBe('real /health');
  });

  it('with intercept: service-paths, takes only /health, /api and /__mock from an origin it shares', async () => {
    const shared = createMswMock(mockOptions(realOrigin, { intercept: 'service-paths' }));
    msw.use(...shared.handlers);
    try {
      expect(await (await fetch(`${realOrigin}/health`)).json()).toMatchObject({ success: true, status: 'ok' });
      expect((await fetch(`${realOrigin}/api/unknown`)).status).toBe(404);
      expect(await (await fetch(`${realOrigin}/index.html`)).text()).toBe('real /index.html');
    } finally {
      msw.resetHandlers();
    }
  });

  it('keys rate limits on defaultIp and ignores X-Forwarded-For unless trusted', async () => {
    await mock.control.reset();
    const register = (origin: string, forwardedFor: string) =>
      post(`${origin}/api/auth/register`, { email: 'spam@example.com' }, { 'x-forwarded-for': forwardedFor });
    const statuses: number[] = [];
    for (let attempt = 1; attempt <= RATE_LIMITS.auth.limit + 1; attempt++) statuses.push((await register(API, `198.51.100.${attempt}`)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(await mock.control.buckets()).toMatchObject([{ category: 'auth', key: '10.1.1.1', remaining: 0 }]);

    for (let attempt = 1; attempt <= RATE_LIMITS.auth.limit; attempt++) await register(TRUSTING_API, '198.51.100.7');
    const limited = await register(TRUSTING_API, '198.51.100.7');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await register(TRUSTING_API, '198.51.100.8')).status).toBe(200);
  });
});

describe('the page origin a service worker does not see', () => {
  it('is added as the browser would add it, so the page counts as the game client it is', async () => {
    const [player] = await pageMock.control.loadWorld({ players: [{ email: 'page@example.com' }] });
    const read = await fetch(`${PAGE_API}/api/player`, { headers: { authorization: `Bearer ${player!.authToken}` } });
    expect(read.status).toBe(200);
    expect(read.headers.get('x-ratelimit-limit'), 'a game origin is not counted against the read bucket').toBeNull();
    expect(read.headers.get('access-control-allow-origin')).toBe(PAGE);
    const sent = await fetch(`${PAGE_API}/health`, { headers: { origin: 'https://other.example' } });
    expect(sent.headers.get('x-ratelimit-limit'), 'an Origin the request carries is kept').toBe(String(RATE_LIMITS.public.limit));
  });
});

describe('control', () => {
  it('loads worlds, applies scenarios and resets, in-process', async () => {
    const token = '00000000-0000-4000-8000-0000000000aa';
    const [seeded] = await mock.control.loadWorld({ players: [{ email: 'seed@example.com', token }] });
    expect(seeded).toMatchObject({ email: 'seed@example.com', authToken: token });
    const bearer = { authorization: `Bearer ${token}` };
    expect((await fetch(`${API}/api/player`, { headers: bearer })).status).toBe(200);
    await mock.control.applyScenario('token-expired', { token });
    expect((await fetch(`${API}/api/player`, { headers: bearer })).status).toBe(401);
    expect(await mock.control.reset(['players'])).toEqual({ success: true, reset: ['players'] });
    expect(await mock.control.players()).toEqual([]);
  });

  it('throws the status and envelope message of a refused call', async () => {
    const refused = mock.control.advanceClock(-5);
    await expect(refused).rejects.toBeInstanceOf(MockControlError);
    await expect(refused).rejects.toMatchObject({ status: 400, envelopeMessage: 'body /advanceMs must be >= 0' });
    await expect(mock.control.applyScenario('nope')).rejects.toThrow('POST /__mock/scenarios/nope answered 404');
    const noCode = mock.control.latestOtp('nobody@example.com');
    await expect(noCode).rejects.toBeInstanceOf(MockControlError);
    await expect(noCode).rejects.toMatchObject({ status: 404, envelopeMessage: 'The mock delivered no code to nobody@example.com' });
  });
});
