import { describe, expect, it } from 'vitest';
import { CoreHarness } from '../../../test/support/core-harness.js';
import type { ServiceOptions } from '../options.js';
import type { UserRoute } from './user-route.js';

/** The fields a real game's client reads of its ship, which the spec does not show. */
const SHIP_TEMPLATE = {
  current_sector: 1,
  credits: 1000,
  ship_name: '{{body.shipName ?? body.name}}',
  class: '{{body.classId ?? "scout"}}',
  serial: '{{counter}}',
  owner: '{{player.email}}',
  built: '{{now}}',
  turns: '{{player.actionPoints}}',
};
const MOVE: UserRoute = {
  method: 'POST',
  path: '/api/player/ship/move',
  cost: 1,
  ship: { current_sector: '{{body.sectorId}}', turns: '{{player.actionPoints}}' },
  player: { lastMove: '{{now}}' },
  response: { ship: '{{ship}}' },
};

function harness(options: Partial<ServiceOptions> = {}) {
  return new CoreHarness({ ship: SHIP_TEMPLATE, player: { credits: 250, rank: 'cadet', joined: '{{counter}}' }, routes: [MOVE], ...options });
}

async function withShip(core: CoreHarness, email = 'pilot@example.com') {
  const token = await core.signIn(email);
  const created = await core.call('POST', '/api/player/ship', { token, body: { galaxyId: 1, shipName: 'Nomad', classId: 'merchant' } });
  expect(created.status).toBe(200);
  return { token, created: (created.body as { ship: Record<string, unknown> }).ship };
}

const shipOf = async (core: CoreHarness, token: string) => (await core.call('GET', '/api/player/ship', { token })).body as { ship: Record<string, unknown> };

describe('ship and player templates: the fields the spec leaves open, said by the user', () => {
  it("gives a new ship the template's fields beside the mock's own, types kept, from its body, the player, the clock and a counter", async () => {
    const core = harness();
    const { token, created } = await withShip(core);
    expect(created).toMatchObject({
      name: 'Nomad',
      galaxyId: 1,
      shipName: 'Nomad',
      current_sector: 1,
      credits: 1000,
      ship_name: 'Nomad',
      class: 'merchant',
      serial: 1,
      owner: 'pilot@example.com',
      built: '2026-11-21T10:00:00.000Z',
      turns: 60,
    });
    expect(typeof created['id']).toBe('string');
    expect((await shipOf(core, token)).ship).toEqual(created);
    const player = (await core.call('GET', '/api/player', { token })).body as { player: Record<string, unknown> };
    expect(player.player['ship']).toEqual(created);
    const second = await withShip(core, 'second@example.com');
    expect(second.created['serial']).toBe(2);
  });

  it("gives a new player the template's fields beside the mock's own, in GET /api/player and under player-fields-flat", async () => {
    const core = harness();
    const token = await core.signIn('pilot@example.com');
    const other = await core.signIn('other@example.com');
    const read = (await core.call('GET', '/api/player', { token })).body as { success: boolean; player: Record<string, unknown> };
    expect(read).toMatchObject({ success: true, player: { email: 'pilot@example.com', actionPoints: 60, credits: 250, rank: 'cadet', joined: 1 } });
    expect(((await core.call('GET', '/api/player', { token: other })).body as { player: Record<string, unknown> }).player['joined']).toBe(2);
    const flat = harness({ variants: ['player-fields-flat'], player: { success: false, credits: 250 } });
    const flatToken = await flat.signIn('flat@example.com');
    expect((await flat.call('GET', '/api/player', { token: flatToken })).body).toMatchObject({ success: true, credits: 250 });
  });

  it("a route writes into the caller's ship and player: the next reads show it, with the points as the move left them", async () => {
    const core = harness();
    const { token } = await withShip(core);
    const moved = await core.call('POST', '/api/player/ship/move', { token, body: { sectorId: 7 } });
    expect(moved.status).toBe(200);
    expect(moved.headers['x-actionpoints-remaining']).toBe('59');
    expect(moved.body).toMatchObject({ success: true, ship: { current_sector: 7, turns: 59, name: 'Nomad' } });
    expect((await shipOf(core, token)).ship).toMatchObject({ current_sector: 7, turns: 59, credits: 1000 });
    const player = (await core.call('GET', '/api/player', { token })).body as { player: Record<string, unknown> };
    expect(player.player).toMatchObject({ lastMove: '2026-11-21T10:00:00.000Z', credits: 250, actionPoints: 59 });
    const other = await withShip(core, 'other@example.com');
    expect((await shipOf(core, other.token)).ship['current_sector']).toBe(1);
  });

  it('a refused move keeps nothing: no ship yet (404), too few points (403), during an encounter (409)', async () => {
    const core = harness();
    const token = await core.signIn('pilot@example.com');
    const noShip = await core.call('POST', '/api/player/ship/move', { token, body: { sectorId: 7 } });
    expect(noShip).toMatchObject({ status: 404, body: { error: 'This player has no ship yet; create one with POST /api/player/ship' } });
    expect(((await core.call('GET', '/api/player', { token })).body as { player: { actionPoints: number; lastMove?: string } }).player).toMatchObject({
      actionPoints: 60,
    });
    const { token: pilot } = await withShip(core, 'broke@example.com');
    const id = ((await core.call('GET', '/api/player', { token: pilot })).body as { player: { id: string } }).player.id;
    await core.call('PUT', `/__mock/players/${id}/action-points`, { body: { points: 0 }, ip: '127.0.0.1' });
    expect((await core.call('POST', '/api/player/ship/move', { token: pilot, body: { sectorId: 3 } })).status).toBe(403);
    expect((await shipOf(core, pilot)).ship['current_sector']).toBe(1);
    await core.call('POST', `/__mock/players/${id}/encounter`, { ip: '127.0.0.1' });
    expect((await core.call('POST', '/api/player/ship/move', { token: pilot, body: { sectorId: 3 } })).status).toBe(409);
    expect((await shipOf(core, pilot)).ship['current_sector']).toBe(1);
  });

  it('refuses (413) fields beyond the bound, keeping nothing and spending nothing', async () => {
    const core = harness({ routes: [{ ...MOVE, ship: { cargo: '{{body.cargo}}' } }] });
    const { token } = await withShip(core);
    const huge = await core.call('POST', '/api/player/ship/move', { token, body: { cargo: 'x'.repeat(20_000) } });
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ error: expect.stringMatching(/^The ship's fields would take \d+ bytes; at most 16384 are kept per player$/) });
    expect((await shipOf(core, token)).ship['cargo']).toBeUndefined();
    expect(((await core.call('GET', '/api/player', { token })).body as { player: { actionPoints: number } }).player.actionPoints).toBe(60);
    const bigShip = harness({ ship: { copy: '{{body.blob}}' } });
    const pilot = await bigShip.signIn('big@example.com');
    const refused = await bigShip.call('POST', '/api/player/ship', { token: pilot, body: { blob: 'y'.repeat(20_000) } });
    expect(refused.status).toBe(413);
    expect((await bigShip.call('GET', '/api/player/ship', { token: pilot })).status).toBe(404);
  });

  it('lets a handler read and update the ship and the player; a refusal of the handler keeps nothing', async () => {
    const trade: UserRoute = {
      method: 'POST',
      path: '/api/trade',
      handler: (context) => {
        const price = Number(context.body['price']);
        const credits = context.ship!['credits'] as number;
        context.ship!.update({ credits: credits - price });
        context.player!.update({ trades: ((context.player!['trades'] as number | undefined) ?? 0) + 1 });
        if ((context.ship!['credits'] as number) < 0) throw context.error(403, 'Not enough credits');
        return { credits: context.ship!['credits'] };
      },
    };
    const core = harness({ routes: [trade] });
    const { token } = await withShip(core);
    expect((await core.call('POST', '/api/trade', { token, body: { price: 300 } })).body).toEqual({ success: true, credits: 700 });
    expect((await core.call('POST', '/api/trade', { token, body: { price: 5000 } })).status).toBe(403);
    expect((await shipOf(core, token)).ship['credits']).toBe(700);
    const player = (await core.call('GET', '/api/player', { token })).body as { player: Record<string, unknown> };
    expect(player.player['trades']).toBe(1);
  });
});

describe("replacing the mock's own routes, never the spec's", () => {
  const shipRead: UserRoute = { method: 'GET', path: '/api/player/ship', response: { ship: { sector: '{{state.sector ?? 1}}', owner: '{{player.email}}' } } };

  it('a config route answers GET /api/player/ship instead of the mock, and the listing names it', async () => {
    const core = new CoreHarness({ routes: [shipRead] });
    const token = await core.signIn('pilot@example.com');
    const read = await core.call('GET', '/api/player/ship', { token });
    expect(read).toMatchObject({ status: 200, body: { success: true, ship: { sector: 1, owner: 'pilot@example.com' } } });
    expect(read.headers['x-ratelimit-remaining']).toBe('59');
    expect((await core.call('GET', '/api/player/ship')).status).toBe(401);
    const { routes } = (await core.call('GET', '/__mock/routes', { ip: '127.0.0.1' })).body as { routes: { id: string; source: string }[] };
    expect(routes.filter((route) => route.id.includes('/api/player/ship') && route.id.startsWith('GET'))).toEqual([
      expect.objectContaining({ id: 'GET /api/player/ship', source: 'config' }),
    ]);
  });

  it('a route that would replace a row of the spec is refused, the row named', () => {
    expect(() => new CoreHarness({ routes: [{ method: 'POST', path: '/api/player/ship' }] })).toThrow(
      'routes/0 POST /api/player/ship is the row "POST {base_url}/api/player/ship" (createShip) of the spec\'s Endpoints table',
    );
  });
});

describe('what a template or route may not say', () => {
  const problems = (options: Partial<ServiceOptions>) => {
    try {
      new CoreHarness(options);
      return '';
    } catch (error) {
      return (error as Error).message;
    }
  };

  it("names the mock's own fields, roots a resource template does not read, writes on a public route, counter in a route, response beside body", () => {
    expect(problems({ ship: { name: 'x', id: 1 } })).toBe(
      "ship names name, id: the ship's id, name, createdAt are fields the mock sets (name from the creation body or a world); give yours other names",
    );
    expect(problems({ player: { at: '{{params.id}}', s: '{{ship.credits}}' } })).toBe(
      'player/at {{params.id}} reads params, which a player template does not read: it is evaluated once, when the player is created, from the player, {{now}} and {{counter}}; player/s {{ship.credits}} reads ship, which a player template does not read: it is evaluated once, when the player is created, from the player, {{now}} and {{counter}}',
    );
    expect(problems({ routes: [{ method: 'GET', path: '/api/news', category: 'public', ship: { seen: true } }] })).toBe(
      'routes/0/ship is kept per player, and a public route has no player',
    );
    expect(problems({ routes: [{ method: 'GET', path: '/api/n', response: { n: '{{counter}}' } }] })).toBe(
      'routes/0/response/n {{counter}} reads counter, which only the ship and player templates read',
    );
    expect(problems({ routes: [{ method: 'GET', path: '/api/n', response: {}, body: [] }] })).toBe(
      'routes/0/body and response are both given: response is the fields added to {"success": true}, body the whole answer; give one',
    );
    expect(problems({ routes: [{ method: 'POST', path: '/api/n', player: { email: 'x' } }] })).toMatch(/^routes\/0\/player names email: /);
  });
});

describe('worlds and the control API take any field of a player and its ship', () => {
  it("shows a world's fields over the templates', and refuses only the mock's own fields, by name", async () => {
    const core = harness({
      world: {
        players: [{ email: 'seeded@example.com', token: '00000000-0000-4000-8000-0000000000aa', credits: 40, ship: { name: 'Wren', current_sector: 4 } }],
      },
    });
    const token = '00000000-0000-4000-8000-0000000000aa';
    expect((await shipOf(core, token)).ship).toMatchObject({ name: 'Wren', current_sector: 4, credits: 1000, serial: 1, ship_name: 'Wren' });
    const read = (await core.call('GET', '/api/player', { token })).body as { player: Record<string, unknown> };
    expect(read.player).toMatchObject({ credits: 40, rank: 'cadet', joined: 1 });

    const created = await core.call('POST', '/__mock/players', {
      ip: '127.0.0.1',
      body: { email: 'made@example.com', faction: 'traders', ship: { hull: 80 } },
    });
    expect(created.status).toBe(200);
    const made = created.body as { authToken: string; player: Record<string, unknown> };
    expect(made.player).toMatchObject({ faction: 'traders', ship: { hull: 80, current_sector: 1 } });
    expect((await shipOf(core, made.authToken)).ship).toMatchObject({ hull: 80, name: expect.stringMatching(/^Ship /) });

    const own = await core.call('POST', '/__mock/players', { ip: '127.0.0.1', body: { email: 'bad@example.com', ship: { createdAt: 'x' } } });
    expect(own).toMatchObject({ status: 400, body: { error: expect.stringContaining('the ship of bad@example.com names createdAt') } });
    const loaded = await core.call('POST', '/__mock/world', { ip: '127.0.0.1', body: { players: [{ email: 'w@example.com', maxActionPoints: 9 }] } });
    expect(loaded).toMatchObject({ status: 400, body: { error: expect.stringContaining('w@example.com names maxActionPoints') } });
  });
});
