import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../src/core/clock.js';
import type { ServiceResponse } from '../src/core/http.js';
import { createService, type Service } from '../src/core/service.js';
import type { World } from '../src/core/world.js';
import { parseWorld } from '../src/core/world-schema.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WORLDS_DIR = resolve(ROOT, 'fixtures/worlds');
const FILES = readdirSync(WORLDS_DIR)
  .filter((name) => name.endsWith('.json'))
  .sort();
const START_MS = Date.UTC(2030, 0, 1);

function load(name: string): World {
  return parseWorld(JSON.parse(readFileSync(resolve(WORLDS_DIR, name), 'utf8')));
}

function serviceWith(world: World): Service {
  return createService({ version: '0.1.0', clock: new ManualClock(START_MS), world, onOtp: () => {} });
}

function call(service: Service, method: string, path: string, token: string, body?: unknown): Promise<ServiceResponse> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const bytes = body === undefined ? undefined : new TextEncoder().encode(JSON.stringify(body));
  return service.handle({ method, path, headers, body: bytes, ip: '127.0.0.1' });
}

describe('fixtures/worlds', () => {
  it('holds the demo world', () => {
    expect(FILES).toContain('demo.json');
  });

  it.each(FILES)('%s parses, loads, and its tokens sign its players in', async (name) => {
    const world = load(name);
    expect(world.description?.length ?? 0).toBeGreaterThan(20);
    if (world.$schema !== undefined) expect(resolve(WORLDS_DIR, world.$schema)).toBe(resolve(ROOT, 'world.schema.json'));
    const tokens = world.players.flatMap((player) => (player.token === undefined ? [] : [player.token.toLowerCase()]));
    expect(new Set(tokens).size).toBe(tokens.length);

    const service = serviceWith(world);
    expect(service.store.players.size).toBe(world.players.length);
    for (const seed of world.players) {
      if (seed.token === undefined) continue;
      const response = await call(service, 'GET', '/api/player', seed.token);
      expect({ email: seed.email, status: response.status }).toEqual({ email: seed.email, status: 200 });
      expect(response.body).toMatchObject({
        success: true,
        player: {
          email: seed.email.trim().toLowerCase(),
          emailVerified: seed.emailVerified ?? true,
          actionPoints: seed.actionPoints ?? 60,
          ship: seed.ship ? { name: seed.ship.name } : null,
        },
      });
    }
  });
});

describe('fixtures/worlds/demo.json', () => {
  const TOKENS = {
    pilot: '00000000-0000-4000-8000-000000000001',
    rookie: '00000000-0000-4000-8000-000000000002',
    pending: '00000000-0000-4000-8000-000000000003',
    ambushed: '00000000-0000-4000-8000-000000000004',
  };

  it('has the four documented accounts, each with its fixed token', () => {
    const world = load('demo.json');
    expect(world.$schema).toBe('../../world.schema.json');
    expect(world.players.map((player) => [player.email, player.token])).toEqual(Object.entries(TOKENS).map(([name, token]) => [`${name}@example.com`, token]));
  });

  it('puts each account in the state its description promises', async () => {
    const service = serviceWith(load('demo.json'));
    const ship = (token: string) => call(service, 'POST', '/api/player/ship', token, { name: 'Comet' });

    const pilot = await ship(TOKENS.pilot);
    expect([pilot.status, pilot.body]).toEqual([400, { error: 'This player already has a ship' }]);
    const rookie = await ship(TOKENS.rookie);
    expect(rookie.status).toBe(200);
    expect(rookie.body).toMatchObject({ success: true, ship: { name: 'Comet' } });
    const pending = await ship(TOKENS.pending);
    expect([pending.status, pending.body]).toEqual([403, { error: 'Email verification is required before creating a ship' }]);
    const ambushed = await ship(TOKENS.ambushed);
    expect([ambushed.status, ambushed.body]).toEqual([409, { error: 'A fighter encounter must be resolved first' }]);
    expect(ambushed.headers['x-actionpoints-remaining']).toBe('3');
    expect((await call(service, 'GET', '/api/player', TOKENS.ambushed)).body).toMatchObject({ player: { actionPoints: 3, ship: { name: 'Last Chance' } } });
  });
});
