import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../src/core/clock.js';
import { header, type JsonResponse } from './support/http.js';
import { json, useControlServers, type ControlServer } from './support/control-server.js';

/**
 * What a client developer does with the mock, over HTTP only: the public API for the game, the control
 * API under /__mock for the code (the outbox) and for time (POST /__mock/clock). The service starts on a
 * running clock, as `game-service mock` does; the test freezes it through the control API.
 */
const startServer = useControlServers();

const T0 = Date.UTC(2030, 2, 1, 9, 0, 0);
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const iso = (ms: number) => new Date(ms).toISOString();
const EMAIL = 'alice@example.com';

interface Message {
  code: string;
  state: string;
  expiresAt: string;
}

async function advance(mock: ControlServer, ms: number): Promise<number> {
  const moved = await mock.post('/__mock/clock', { advanceMs: ms });
  expect(moved.status).toBe(200);
  return json<{ nowMs: number }>(moved).nowMs;
}

async function outbox(mock: ControlServer, email: string): Promise<Message[]> {
  return json<{ messages: Message[] }>(await mock.get(`/__mock/outbox?email=${encodeURIComponent(email)}`)).messages;
}

function expectStatus(response: JsonResponse, status: number): void {
  expect({ status: response.status, body: response.body }).toMatchObject({ status });
}

describe('a client developer drives the mock through the control API', () => {
  it('signs in, sees codes and tokens expire, a rate-limit window roll over, points run out and an encounter block play', async () => {
    const mock = await startServer({
      service: {
        clock: new VirtualClock(),
        routes: [{ method: 'POST', path: '/api/sector/scan', category: 'gameplay', cost: 20, response: { sector: 7 } }],
      },
    });
    const frozen = await mock.post('/__mock/clock', { set: iso(T0), frozen: true });
    expect(frozen.body).toEqual({ success: true, now: iso(T0), nowMs: T0, frozen: true });

    // Register, read the code from the outbox (not the console), verify.
    expectStatus(await mock.post('/api/auth/register', { email: EMAIL }), 200);
    const [first] = await outbox(mock, EMAIL);
    expect(first).toMatchObject({ code: expect.stringMatching(/^\d{6}$/), state: 'pending', expiresAt: iso(T0 + 15 * MINUTE) });
    const verified = await mock.post('/api/auth/verify-email', { email: EMAIL, otp: first!.code });
    expectStatus(verified, 200);
    const { authToken, expiresAt } = json<{ authToken: string; expiresAt: string }>(verified);
    expect(expiresAt).toBe(iso(T0 + 7 * DAY));
    const signedIn = { authorization: `Bearer ${authToken}` };
    expect((await mock.get('/api/player', signedIn)).body).toMatchObject({ player: { email: EMAIL, emailVerified: true } });

    // A code 15 minutes old is rejected.
    expectStatus(await mock.post('/api/auth/register', { email: EMAIL }), 200);
    const [old] = await outbox(mock, EMAIL);
    expect((await outbox(mock, EMAIL)).map((message) => message.state)).toEqual(['pending', 'used']);
    expect(await advance(mock, 15 * MINUTE)).toBe(T0 + 15 * MINUTE);
    const stale = await mock.post('/api/auth/verify-email', { email: EMAIL, otp: old!.code });
    expect(stale.status).toBe(400);
    expect(stale.body).toEqual({ error: 'No valid code for this email: it expired, was used, or was never sent; register again' });
    expect((await outbox(mock, EMAIL)).map((message) => message.state)).toEqual(['expired', 'used']);

    // Seven days later the token is rejected; registering again gives a new one.
    expect((await mock.get('/api/player', signedIn)).status).toBe(200);
    const T1 = await advance(mock, 7 * DAY);
    const expired = await mock.get('/api/player', signedIn);
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ error: 'Missing, invalid or expired bearer token' });
    expectStatus(await mock.post('/api/auth/register', { email: EMAIL }), 200);
    const renewed = await mock.post('/api/auth/verify-email', { email: EMAIL, otp: (await outbox(mock, EMAIL))[0]!.code });
    expect(json(renewed)).toMatchObject({ success: true, expiresAt: iso(T1 + 7 * DAY) });
    const playing = { authorization: `Bearer ${json<{ authToken: string }>(renewed).authToken}` };
    expect((await mock.get('/api/player', playing)).status).toBe(200);

    // The auth bucket (5 per IP per minute) runs out, and a new window starts 60 s later.
    for (const remaining of ['2', '1', '0']) {
      const response = await mock.post('/api/auth/register', { email: 'bob@example.com' });
      expect([response.status, header(response, 'x-ratelimit-remaining')]).toEqual([200, remaining]);
    }
    const limited = await mock.post('/api/auth/register', { email: 'bob@example.com' });
    expect(limited.status).toBe(429);
    expect(header(limited, 'retry-after')).toBe('60');
    expect(header(limited, 'x-ratelimit-reset')).toBe(String((T1 + MINUTE) / 1000));
    const T2 = await advance(mock, 60_000);
    const fresh = await mock.post('/api/auth/register', { email: 'bob@example.com' });
    expect(fresh.status).toBe(200);
    expect(header(fresh, 'x-ratelimit-limit')).toBe('5');
    expect(header(fresh, 'x-ratelimit-remaining')).toBe('4');
    expect(header(fresh, 'x-ratelimit-reset')).toBe(String((T2 + MINUTE) / 1000));

    // A configured gameplay route (cost 20) drains the 60 action points; then 403 with NextRefill in seconds.
    for (const remaining of ['40', '20', '0']) {
      const scan = await mock.post('/api/sector/scan', {}, playing);
      expect([scan.status, scan.body, header(scan, 'x-actionpoints-remaining')]).toEqual([200, { success: true, sector: 7 }, remaining]);
    }
    const broke = await mock.post('/api/sector/scan', {}, playing);
    expect(broke.status).toBe(403);
    expect(broke.body).toEqual({ error: 'Insufficient action points: this action costs 20, 0 remaining' });
    expect(header(broke, 'x-actionpoints-remaining')).toBe('0');
    expect(header(broke, 'x-actionpoints-nextrefill')).toBe('60');
    await advance(mock, 30_000);
    expect(header(await mock.post('/api/sector/scan', {}, playing), 'x-actionpoints-nextrefill')).toBe('30');
    await advance(mock, 19 * MINUTE + 30_000);

    // An encounter started through the control API blocks play with 409 until it is resolved.
    const started = await mock.post(`/__mock/players/${EMAIL}/encounter`);
    expect(json(started)).toMatchObject({ player: { email: EMAIL, inEncounter: true, actionPoints: 20 } });
    const blocked = await mock.post('/api/sector/scan', {}, playing);
    expect(blocked.status).toBe(409);
    expect(blocked.body).toEqual({ error: 'A fighter encounter must be resolved first' });
    expect(header(blocked, 'x-actionpoints-remaining')).toBe('20');
    const resolved = await mock.request('DELETE', `/__mock/players/${EMAIL}/encounter`);
    expect(json(resolved)).toMatchObject({ player: { inEncounter: false } });
    const allowed = await mock.post('/api/sector/scan', {}, playing);
    expect(allowed.status).toBe(200);
    expect(header(allowed, 'x-actionpoints-remaining')).toBe('0');
  });
});
