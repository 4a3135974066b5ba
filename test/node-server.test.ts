import type { Agent } from 'undici';
import { describe, expect, it } from 'vitest';
import type { ServiceResponse } from '../src/core/http.js';
import { SERVER_LIMITS } from '../src/hosts/node-http.js';
import { call, header, type JsonResponse } from './support/http.js';
import { useResources } from './support/resources.js';
import { lastOtpFor, START_MS } from './support/server.js';

const resources = useResources();

const WINDOW_END_SECONDS = String(Math.floor((START_MS + 60_000) / 1000));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function register(url: string, email: string, agent: Agent, headers: Record<string, string> = {}): Promise<JsonResponse> {
  return call(`${url}/api/auth/register`, { json: { email }, headers, dispatcher: agent });
}

describe('node:http host: health and the sign-in flow', () => {
  it('answers /health with 200, a JSON body and the public-bucket headers', async () => {
    const { url } = await resources.server();
    const response = await call(`${url}/health`, { dispatcher: resources.agent() });

    expect(response.status).toBe(200);
    expect(header(response, 'content-type')).toBe('application/json; charset=utf-8');
    expect(response.body).toEqual({ success: true, status: 'ok', version: '0.1.0' });
    expect(header(response, 'x-ratelimit-limit')).toBe('60');
    expect(header(response, 'x-ratelimit-remaining')).toBe('59');
    expect(header(response, 'x-ratelimit-reset')).toBe(WINDOW_END_SECONDS);
    expect(header(response, 'vary')).toBe('Origin');
    expect(header(response, 'content-length')).toBe(String(Buffer.byteLength(response.text)));
  });

  it('registers, verifies the emailed code, reads the player and creates a ship', async () => {
    const { url, otps } = await resources.server();
    const agent = resources.agent();
    const email = 'pilot@example.com';

    const registered = await register(url, email, agent);
    expect(registered.status).toBe(200);
    expect(registered.body).toEqual({ success: true, message: `A verification code was sent to ${email}` });
    expect(otps).toHaveLength(1);
    expect(otps[0]).toMatchObject({ email, issuedAt: START_MS, expiresAt: START_MS + 15 * 60_000 });
    const code = lastOtpFor(otps, email);
    expect(code).toMatch(/^\d{6}$/);

    const verified = await call(`${url}/api/auth/verify-email`, { json: { email, otp: code }, dispatcher: agent });
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({
      success: true,
      authToken: expect.stringMatching(UUID),
      expiresAt: new Date(START_MS + 7 * 24 * 3_600_000).toISOString(),
    });
    expect(header(verified, 'x-ratelimit-remaining')).toBe('3');
    const authorization = `Bearer ${(verified.body as { authToken: string }).authToken}`;

    const anonymous = await call(`${url}/api/player`, { dispatcher: agent });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ error: expect.any(String) });

    const player = await call(`${url}/api/player`, { headers: { authorization }, dispatcher: agent });
    expect(player.status).toBe(200);
    expect(player.body).toMatchObject({
      success: true,
      player: { email, emailVerified: true, actionPoints: 60, maxActionPoints: 60, ship: null },
    });
    expect(header(player, 'x-ratelimit-limit')).toBe('60');
    expect(header(player, 'x-ratelimit-remaining')).toBe('59');

    const ship = await call(`${url}/api/player/ship`, { json: { name: 'Nomad' }, headers: { authorization }, dispatcher: agent });
    expect(ship.status).toBe(200);
    expect(ship.body).toMatchObject({ success: true, ship: { name: 'Nomad', id: expect.stringMatching(UUID) } });
    expect(header(ship, 'x-actionpoints-remaining')).toBe('60');
    expect(header(ship, 'x-actionpoints-nextrefill')).toBeUndefined();
    expect(header(ship, 'x-ratelimit-remaining')).toBe('59');

    const after = await call(`${url}/api/player`, { headers: { authorization }, dispatcher: agent });
    expect(after.body).toMatchObject({ player: { ship: { name: 'Nomad' } } });
  });
});

describe('node:http host: the auth bucket is per client IP', () => {
  it('keeps separate buckets for two source addresses', async () => {
    const { url, clock, server } = await resources.server();
    const peers = new Set<string | undefined>();
    server.on('connection', (socket) => peers.add(socket.remoteAddress));
    const fromTwo = resources.agent('127.0.0.2');
    const fromThree = resources.agent('127.0.0.3');

    for (let i = 0; i < 5; i++) {
      const response = await register(url, `two-${i}@example.com`, fromTwo);
      expect(response.status).toBe(200);
      expect(header(response, 'x-ratelimit-remaining')).toBe(String(4 - i));
    }
    const limited = await register(url, 'two-5@example.com', fromTwo);
    expect(limited.status).toBe(429);
    expect(header(limited, 'retry-after')).toBe('60');
    expect(header(limited, 'x-ratelimit-remaining')).toBe('0');
    expect(limited.body).toEqual({ error: expect.stringContaining('Rate limit exceeded') });

    const other = await register(url, 'three@example.com', fromThree);
    expect(other.status).toBe(200);
    expect(header(other, 'x-ratelimit-limit')).toBe('5');
    expect(header(other, 'x-ratelimit-remaining')).toBe('4');
    const badVerify = await call(`${url}/api/auth/verify-email`, { json: { email: 'three@example.com', otp: 'x' }, dispatcher: fromThree });
    expect(badVerify.status).toBe(400);
    expect(header(badVerify, 'x-ratelimit-remaining')).toBe('3');

    clock.advance(59_500);
    const stillLimited = await register(url, 'two-6@example.com', fromTwo);
    expect(stillLimited.status).toBe(429);
    expect(header(stillLimited, 'retry-after')).toBe('1');
    clock.advance(500);
    const nextWindow = await register(url, 'two-7@example.com', fromTwo);
    expect(nextWindow.status).toBe(200);
    expect(header(nextWindow, 'x-ratelimit-remaining')).toBe('4');
    expect([...peers].sort()).toEqual(['127.0.0.2', '127.0.0.3']);
  });

  it('with trustProxy, keys the bucket by the first X-Forwarded-For hop', async () => {
    const { url } = await resources.server({ trustProxy: true });
    const agent = resources.agent();
    const first = { 'x-forwarded-for': '203.0.113.7, 10.0.0.1' };

    for (let i = 0; i < 5; i++) await register(url, `a${i}@example.com`, agent, first);
    const limited = await register(url, 'a5@example.com', agent, first);
    expect(limited.status).toBe(429);
    expect(header(limited, 'retry-after')).toBe('60');

    const second = await register(url, 'b@example.com', agent, { 'x-forwarded-for': '198.51.100.9' });
    expect(second.status).toBe(200);
    expect(header(second, 'x-ratelimit-remaining')).toBe('4');
    // Same first hop, different later hops: the same client.
    const sameClient = await register(url, 'c@example.com', agent, { 'x-forwarded-for': '203.0.113.7' });
    expect(sameClient.status).toBe(429);
  });

  it('without trustProxy, ignores X-Forwarded-For and keys by the TCP peer', async () => {
    const { url } = await resources.server();
    const agent = resources.agent();

    const first = await register(url, 'a@example.com', agent, { 'x-forwarded-for': '203.0.113.7' });
    const second = await register(url, 'b@example.com', agent, { 'x-forwarded-for': '198.51.100.9' });
    const third = await register(url, 'c@example.com', agent);
    expect([first, second, third].map((response) => header(response, 'x-ratelimit-remaining'))).toEqual(['4', '3', '2']);
  });
});

describe("node:http host: the service's answer", () => {
  it("is written with the wire's own headers (length, type, connection) and left as the service gave it", async () => {
    const { url, service } = await resources.server();
    const answers: ServiceResponse[] = [];
    const handleNow = service.handleNow.bind(service);
    service.handleNow = (request) => {
      const answer = handleNow(request);
      if (answer instanceof Promise) throw new Error('a request without a store round trip is answered at once');
      answers.push(answer);
      return answer;
    };
    const agent = resources.agent();
    const health = await call(`${url}/health`, { dispatcher: agent });
    const tooLarge = await call(`${url}/api/auth/register`, {
      method: 'POST',
      body: '{}'.padEnd(70_000),
      headers: { 'content-type': 'application/json' },
      dispatcher: agent,
    });
    expect(header(health, 'content-length')).toBe(String(Buffer.byteLength(health.text)));
    expect(tooLarge.status).toBe(413);
    expect(header(tooLarge, 'connection')).toBe('close');
    expect(answers).toHaveLength(2);
    for (const answer of answers) {
      expect(Object.keys(answer.headers)).not.toContain('content-length');
      expect(Object.keys(answer.headers)).not.toContain('content-type');
      expect(Object.keys(answer.headers)).not.toContain('connection');
    }
  });
});

describe('node:http host: server limits', () => {
  it('sets the header, request and keep-alive timeouts and the connection cap', async () => {
    const { server } = await resources.server();
    expect(SERVER_LIMITS).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
      maxConnections: 10_000,
      timeoutCheckIntervalMs: 200,
    });
    expect(server.headersTimeout).toBe(SERVER_LIMITS.headersTimeoutMs);
    expect(server.requestTimeout).toBe(SERVER_LIMITS.requestTimeoutMs);
    expect(server.keepAliveTimeout).toBe(SERVER_LIMITS.keepAliveTimeoutMs);
    expect(server.maxConnections).toBe(SERVER_LIMITS.maxConnections);
  });
});
