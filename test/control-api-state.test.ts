import { describe, expect, it } from 'vitest';
import type { World } from '../src/core/world.js';
import { header } from './support/http.js';
import { json, useControlServers, type ControlServer } from './support/control-server.js';

const startServer = useControlServers();

const START_MS = Date.UTC(2030, 0, 1);
const DAY = 24 * 3_600_000;
const SEED_TOKEN = '5eed0000-0000-4000-8000-000000000001';
const START_WORLD: World = { players: [{ email: 'seed@example.com', token: SEED_TOKEN, ship: { name: 'Seedling' } }] };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function emails(mock: ControlServer): Promise<string[]> {
  return json<{ players: { email: string }[] }>(await mock.get('/__mock/players')).players.map((player) => player.email);
}

/** Leaves something in every part a reset forgets: a player, a code, a bucket, a journal entry, a moved clock. */
async function dirty(mock: ControlServer): Promise<string> {
  const extra = json<{ authToken: string }>(await mock.post('/__mock/players', { email: 'extra@example.com' })).authToken;
  await mock.post('/api/auth/register', { email: 'alice@example.com' });
  await mock.post('/__mock/clock', { advanceMs: 3_600_000 });
  return extra;
}

describe('control API over HTTP: POST /__mock/reset', () => {
  it('resets only the parts named', async () => {
    const mock = await startServer({ startMs: START_MS, service: { world: START_WORLD } });
    await dirty(mock);

    const buckets = await mock.post('/__mock/reset', { parts: ['buckets', 'journal'] });
    expect(buckets.body).toEqual({ success: true, reset: ['buckets', 'journal'] });
    expect(json(await mock.get('/__mock/buckets')).buckets).toEqual([]);
    expect(json(await mock.get('/__mock/journal')).entries).toEqual([]);
    expect(json(await mock.get('/__mock/outbox')).messages).toHaveLength(1);
    expect(await emails(mock)).toEqual(['seed@example.com', 'extra@example.com']);
    expect(json(await mock.get('/__mock/clock'))).toMatchObject({ nowMs: START_MS + 3_600_000 });

    expect(json(await mock.post('/__mock/reset', { parts: ['outbox'] }))).toEqual({ success: true, reset: ['outbox'] });
    expect(json(await mock.get('/__mock/outbox')).messages).toEqual([]);
    // The pending code went with its message: it can no longer be verified.
    const verify = await mock.post('/api/auth/verify-email', { email: 'alice@example.com', otp: '123456' });
    expect(verify.status).toBe(400);
    expect(verify.body).toEqual({ error: 'No valid code for this email: it expired, was used, or was never sent; register again' });
  });

  it('resets everything without a body: players go back to the start world, the clock to its source time', async () => {
    const mock = await startServer({ startMs: START_MS, service: { world: START_WORLD } });
    const extraToken = await dirty(mock);
    await mock.post('/__mock/scenarios/fighter-encounter', { player: 'seed@example.com' });

    const before = Date.now();
    const reset = await mock.request('POST', '/__mock/reset');
    const after = Date.now();
    expect(reset.body).toEqual({ success: true, reset: ['buckets', 'players', 'outbox', 'journal', 'clock'] });
    const clock = json<{ nowMs: number; frozen: boolean }>(await mock.get('/__mock/clock'));
    expect(clock.frozen).toBe(true);
    expect(clock.nowMs).toBeGreaterThanOrEqual(before);
    expect(clock.nowMs).toBeLessThanOrEqual(after);
    expect(json(await mock.get('/__mock/buckets')).buckets).toEqual([]);
    expect(json(await mock.get('/__mock/outbox')).messages).toEqual([]);
    expect(json(await mock.get('/__mock/journal')).entries).toEqual([]);
    const players = json<{ players: Record<string, unknown>[] }>(await mock.get('/__mock/players')).players;
    expect(players).toEqual([expect.objectContaining({ email: 'seed@example.com', inEncounter: false, ship: expect.objectContaining({ name: 'Seedling' }) })]);

    expect((await mock.get('/api/player', bearer(extraToken))).status).toBe(401);
    const seed = await mock.get('/api/player', bearer(SEED_TOKEN));
    expect(seed.status).toBe(200);
    expect(seed.body).toMatchObject({ player: { email: 'seed@example.com', actionPoints: 60 } });
  });

  // BUG: the parts run in RESET_PARTS order, so 'players' reseeds the world at the old, advanced time
  // before 'clock' moves the clock back: createdAt lies in the future and tokens outlive their 7 days.
  it('a full reset seeds the start world at the reset clock time', async () => {
    const mock = await startServer({ startMs: START_MS, service: { world: START_WORLD } });
    await mock.post('/__mock/clock', { advanceMs: 6 * DAY });
    await mock.post('/__mock/reset');
    const now = json<{ now: string }>(await mock.get('/__mock/clock')).now;
    const [seed] = json<{ players: { createdAt: string }[] }>(await mock.get('/__mock/players')).players;
    expect(seed!.createdAt).toBe(now);
  });
});

describe('control API over HTTP: POST /__mock/world', () => {
  it('replaces every player; the world file tokens work as bearer tokens', async () => {
    const mock = await startServer({ startMs: START_MS, service: { world: START_WORLD } });
    const pilotToken = 'a1b2c3d4-0000-4000-8000-00000000000a';
    const world: World = {
      $schema: '../../world.schema.json',
      description: 'two players',
      players: [
        { email: 'Pilot@Example.com', token: pilotToken, ship: { name: 'Nomad' }, actionPoints: 12 },
        { email: 'rookie@example.com', emailVerified: false, inEncounter: true },
      ],
    };
    const loaded = await mock.post('/__mock/world', world);
    expect(loaded.status).toBe(200);
    const expiresAt = new Date(START_MS + 7 * DAY).toISOString();
    expect(loaded.body).toEqual({
      success: true,
      players: [
        { id: expect.stringMatching(UUID), email: 'pilot@example.com', authToken: pilotToken, expiresAt },
        { id: expect.stringMatching(UUID), email: 'rookie@example.com', authToken: expect.stringMatching(UUID), expiresAt },
      ],
    });
    const rookieToken = json<{ players: { authToken: string }[] }>(loaded).players[1]!.authToken;

    const pilot = await mock.get('/api/player', bearer(pilotToken));
    expect(pilot.status).toBe(200);
    expect(pilot.body).toMatchObject({ player: { email: 'pilot@example.com', emailVerified: true, actionPoints: 12, ship: { name: 'Nomad' } } });
    const ship = await mock.post('/api/player/ship', { name: 'Other' }, bearer(rookieToken));
    expect(ship.status).toBe(403);
    expect(ship.body).toEqual({ error: 'Email verification is required before creating a ship' });
    expect((await mock.get('/api/player', bearer(SEED_TOKEN))).status).toBe(401);
    expect(await emails(mock)).toEqual(['pilot@example.com', 'rookie@example.com']);
    expect(header(await mock.get('/api/player', bearer(rookieToken)), 'x-ratelimit-remaining')).toBe('59');
  });

  // BUG: the schema accepts upper-case hex and seedPlayer stores the token lower-cased, but authenticate()
  // looks the bearer up exactly as sent: the token as written in the world file answers 401.
  it('accepts a world token written in upper case as it appears in the file', async () => {
    const mock = await startServer();
    const token = 'A1B2C3D4-0000-4000-8000-00000000000A';
    await mock.post('/__mock/world', { players: [{ email: 'pilot@example.com', token }] });
    const player = await mock.get('/api/player', bearer(token));
    expect(player.status).toBe(200);
  });

  it('rejects a world listing an email twice and leaves the players as they were', async () => {
    const mock = await startServer({ service: { world: START_WORLD } });
    const duplicate = await mock.post('/__mock/world', { players: [{ email: 'a@example.com' }, { email: 'A@example.com ' }] });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body).toEqual({ error: 'the world lists a@example.com twice' });
    expect(await emails(mock)).toEqual(['seed@example.com']);
  });

  // BUG: loadWorld clears the players before seeding, and seedPlayer checks actionPoints against the
  // configured maximum only then, so a rejected world leaves the players it seeded before the bad one.
  it('rejects a world with a player over the action-point maximum and leaves the players as they were', async () => {
    const mock = await startServer({ service: { world: START_WORLD } });
    const tooMany = await mock.post('/__mock/world', { players: [{ email: 'a@example.com' }, { email: 'b@example.com', actionPoints: 61 }] });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toEqual({ error: 'actionPoints of b@example.com must be an integer from 0 to 60' });
    expect(await emails(mock)).toEqual(['seed@example.com']);
    expect((await mock.get('/api/player', bearer(SEED_TOKEN))).status).toBe(200);
  });

  // BUG: nothing checks that tokens are unique, so the second player silently takes the first one's token.
  it('rejects a world giving two players the same token', async () => {
    const mock = await startServer();
    const token = '0000dddd-0000-4000-8000-000000000001';
    const shared = await mock.post('/__mock/world', {
      players: [
        { email: 'a@example.com', token },
        { email: 'b@example.com', token },
      ],
    });
    expect(shared.status).toBe(400);
    expect(shared.body).toEqual({ error: expect.stringContaining(token) });
  });
});
