import { describe, expect, it } from 'vitest';
import { TOKEN_LIFETIME_MS } from '../spec/limits.js';
import { CoreHarness, START } from '../../test/support/core-harness.js';
import { initialActionPoints } from './action-points.js';
import { DEFAULT_ACTION_POINTS } from './options.js';
import { UNVERIFIED_SHIP_MESSAGE } from './player.js';

/** Unverified players exist only through seeding: put one straight into the store. */
function seedUnverifiedPlayer(harness: CoreHarness): string {
  harness.service.store.addPlayer({
    id: 'unverified-1',
    email: 'pending@example.com',
    emailVerified: false,
    createdAt: START,
    actionPoints: initialActionPoints(DEFAULT_ACTION_POINTS, START),
    ship: null,
    inEncounter: false,
    firstValidTokenSerial: 0,
  });
  const token = crypto.randomUUID();
  harness.service.store.issueToken(token, 'unverified-1', START, START + TOKEN_LIFETIME_MS);
  return token;
}

const createShip = (harness: CoreHarness, token: string, body: unknown = { name: 'Nomad' }) => harness.call('POST', '/api/player/ship', { token, body });

describe('GET /api/player', () => {
  it('returns the documented mock-defined player', async () => {
    const harness = new CoreHarness();
    const token = await harness.signIn('alice@example.com');
    const response = await harness.call('GET', '/api/player', { token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      player: {
        id: expect.any(String),
        email: 'alice@example.com',
        emailVerified: true,
        createdAt: new Date(START).toISOString(),
        actionPoints: 60,
        maxActionPoints: 60,
        ship: null,
      },
    });
  });
});

describe('POST /api/player/ship', () => {
  it('creates one ship for a verified player and reports the action points left', async () => {
    const harness = new CoreHarness();
    const token = await harness.signIn('alice@example.com');
    const response = await createShip(harness, token, { name: '  Nomad ' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, ship: { id: expect.any(String), name: 'Nomad', createdAt: new Date(START).toISOString() } });
    expect(response.headers['x-actionpoints-remaining']).toBe('60');
    expect(response.headers['x-actionpoints-nextrefill']).toBeUndefined();
    const player = await harness.call('GET', '/api/player', { token });
    expect((player.body as { player: { ship: { name: string } } }).player.ship.name).toBe('Nomad');
    const second = await createShip(harness, token, { name: 'Other' });
    expect(second.status).toBe(400);
    expect(second.body).toEqual({ error: expect.stringContaining('already has a ship') });
  });

  it("takes a real client's own payload whole, names the ship from shipName, and shows the same ship everywhere", async () => {
    const harness = new CoreHarness();
    const token = await harness.signIn('alice@example.com');
    const before = await harness.call('GET', '/api/player/ship', { token });
    expect(before.status).toBe(404);
    expect(before.body).toEqual({ error: expect.stringContaining('no ship yet') });
    const created = await createShip(harness, token, { galaxyId: 1, shipName: 'Kestrel', classId: 'merchant' });
    expect(created.status).toBe(200);
    const ship = { galaxyId: 1, shipName: 'Kestrel', classId: 'merchant', id: expect.any(String), name: 'Kestrel', createdAt: new Date(START).toISOString() };
    expect(created.body).toEqual({ success: true, ship });
    expect((await harness.call('GET', '/api/player/ship', { token, headers: {} })).body).toEqual({ success: true, ship });
    expect(((await harness.call('GET', '/api/player', { token })).body as { player: { ship: unknown } }).player.ship).toEqual(ship);
  });

  it.each([
    ['no name', {}],
    ['an empty name', { name: '   ' }],
    ['a numeric name', { name: 7 }],
  ])('gives a ship a name when the payload has %s', async (_case, body) => {
    const harness = new CoreHarness();
    const response = await createShip(harness, await harness.signIn('alice@example.com'), body);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: true, ship: { name: expect.stringMatching(/^Ship [0-9a-f]{8}$/) } });
  });

  it('still refuses a body that is not a JSON object, and a second ship', async () => {
    const harness = new CoreHarness();
    const token = await harness.signIn('alice@example.com');
    expect((await harness.call('POST', '/api/player/ship', { token, rawBody: '[1]' })).status).toBe(400);
    expect((await createShip(harness, token, { shipName: 'One' })).status).toBe(200);
    expect((await createShip(harness, token, { shipName: 'Two' })).status).toBe(400);
  });

  it.each([
    ['no name', {}],
    ['an empty name', { name: '   ' }],
    ['a name of 33 characters', { name: 'x'.repeat(33) }],
    ['a numeric name', { name: 7 }],
    ['shipName instead of name', { shipName: 'Kestrel' }],
  ])('as variant ship-payload-name, rejects %s with 400', async (_case, body) => {
    const harness = new CoreHarness({ variants: ['ship-payload-name'] });
    const response = await createShip(harness, await harness.signIn('alice@example.com'), body);
    expect(response.status).toBe(400);
    expect(response.headers['x-actionpoints-remaining']).toBe('60');
  });

  it('tells a player whose email is not verified that verification is required (403)', async () => {
    const harness = new CoreHarness();
    const response = await createShip(harness, seedUnverifiedPlayer(harness));
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ error: UNVERIFIED_SHIP_MESSAGE });
    expect(UNVERIFIED_SHIP_MESSAGE).toMatch(/email verification is required before creating a ship/i);
  });

  it('answers 409 while a fighter encounter is open, and goes on once it is resolved', async () => {
    const harness = new CoreHarness();
    const token = await harness.signIn('alice@example.com');
    const player = harness.service.store.playerByEmail('alice@example.com')!;
    player.inEncounter = true;
    const blocked = await createShip(harness, token);
    expect(blocked.status).toBe(409);
    expect(blocked.body).toEqual({ error: expect.stringContaining('fighter encounter') });
    expect(blocked.headers['x-actionpoints-remaining']).toBe('60');
    player.inEncounter = false;
    expect((await createShip(harness, token)).status).toBe(200);
  });
});

describe('action points', () => {
  const costly = { actionPoints: { start: 1, max: 3, refillIntervalMs: 60_000 }, actionCosts: { createShip: 2 } };

  it('answers 403 with Remaining and NextRefill (seconds) when too few points remain, and refills 1 per interval', async () => {
    const harness = new CoreHarness(costly);
    const token = await harness.signIn('alice@example.com');
    const poor = await createShip(harness, token);
    expect(poor.status).toBe(403);
    expect(poor.body).toEqual({ error: expect.stringContaining('Insufficient action points') });
    expect(poor.headers['x-actionpoints-remaining']).toBe('1');
    harness.clock.advance(59_000);
    expect((await createShip(harness, token)).status).toBe(403);
    harness.clock.advance(1_000);
    const paid = await createShip(harness, token);
    expect(paid.status).toBe(200);
    expect(paid.headers['x-actionpoints-remaining']).toBe('0');
    expect(paid.headers['x-actionpoints-nextrefill']).toBe('60');
  });

  it('counts NextRefill down to the next point and never refills above the maximum', async () => {
    const harness = new CoreHarness({ actionPoints: { start: 2, max: 3, refillIntervalMs: 60_000 }, actionCosts: { createShip: 2 } });
    const token = await harness.signIn('alice@example.com');
    expect((await createShip(harness, token)).headers['x-actionpoints-nextrefill']).toBe('60');
    harness.clock.advance(45_500);
    const waiting = await createShip(harness, token);
    expect(waiting.headers).toMatchObject({ 'x-actionpoints-remaining': '0', 'x-actionpoints-nextrefill': '15' });
    harness.clock.advance(10 * 60_000);
    const player = await harness.call('GET', '/api/player', { token });
    expect((player.body as { player: { actionPoints: number } }).player.actionPoints).toBe(3);
  });
});
