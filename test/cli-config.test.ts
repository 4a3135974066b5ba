import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, useCli } from './support/cli.js';
import { call, header } from './support/http.js';

const cli = useCli();
const TOKEN = '0b9c7f3e-8d2a-4c1b-9e6f-5a4d3c2b1a00';

let dir = '';
/** Writes a JSON file into this run's temporary directory and returns its path. */
function jsonFile(name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'game-service-cli-config-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('game-service mock --config with nested keys', () => {
  it('applies action points, routes and the world the file names (relative to the file)', async () => {
    jsonFile('pilots.json', { players: [{ email: 'pilot@example.com', token: TOKEN }] });
    const config = jsonFile('nested.json', {
      $schema: '../config.schema.json',
      port: 0,
      // Frozen, so that the refill countdown cannot tick between two requests.
      freezeClock: true,
      world: 'pilots.json',
      actionPoints: { start: 1, max: 5, refillIntervalMs: 600_000, costs: { 'POST /api/mine': 1 } },
      routes: [{ method: 'POST', path: '/api/mine', response: { ore: 3 } }],
      journalSize: 10,
    });
    const { process, url } = await startMock(cli, ['--config', config]);
    expect(process.stdout).toContain(`  world:        1 player from ${join(dir, 'pilots.json')}\n`);
    expect(process.stdout).toMatch(/^ {2}clock: {8}frozen at /m);

    const auth = { authorization: `Bearer ${TOKEN}` };
    const mined = await call(`${url}/api/mine`, { json: {}, headers: auth });
    expect(mined).toMatchObject({ status: 200, body: { success: true, ore: 3 } });
    expect(header(mined, 'x-actionpoints-remaining')).toBe('0');
    const broke = await call(`${url}/api/mine`, { json: {}, headers: auth });
    expect(broke.status).toBe(403);
    expect(header(broke, 'x-actionpoints-nextrefill')).toBe('600');
  });

  it.each([
    ['a value out of range', { actionPoints: { max: 0 } }, '/actionPoints/max must be >= 1'],
    ['an unknown nested key', { routes: [{ method: 'POST', path: '/api/mine', price: 2 }] }, '/routes/0/price is not a known key'],
    ['a cost of no route', { actionPoints: { costs: { 'POST /api/mine': 1 } } }, '/actionPoints/costs/POST ~1api~1mine is not a gameplay route'],
  ])('refuses %s naming the key path, exit 2, before listening', async (_name, contents, message) => {
    const config = jsonFile('bad.json', { port: 0, ...contents });
    const result = await cli.run(['mock', '--config', config]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`game-service: --config ${config}: ${message}`);
    expect(result.stdout).not.toContain('listening');
  });

  it('refuses a gameplay route on a path of the spec, before listening', async () => {
    const config = jsonFile('clash.json', { port: 0, routes: [{ method: 'POST', path: '/api/player/ship' }] });
    const result = await cli.run(['mock', '--config', config]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `game-service: --config ${config}: /routes/0 POST /api/player/ship is the row "POST {base_url}/api/player/ship" (createShip) of the spec's Endpoints table`,
    );
    expect(result.stdout).toBe('');
  });
});

describe('game-service mock --world', () => {
  it('seeds the players of a valid file, with their fixed tokens', async () => {
    const world = jsonFile('world.json', {
      players: [
        { email: 'a@example.com', token: TOKEN },
        { email: 'b@example.com', emailVerified: false },
      ],
    });
    const { process, url } = await startMock(cli, ['--port', '0', '--world', world]);
    expect(process.stdout).toContain(`  world:        2 players from ${world}\n`);
    const player = await call(`${url}/api/player`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(player).toMatchObject({ status: 200, body: { player: { email: 'a@example.com', emailVerified: true } } });
  });

  it.each([
    ['breaks the schema', { players: [{ email: 'a@example.com', ship: { name: '' } }] }, ': /players/0/ship/name must NOT have fewer than 1 characters'],
    ['is not JSON', '{"players": [', ' is not valid JSON'],
  ])('exits 2 for a file that %s, naming the path', async (_name, contents, message) => {
    const world = jsonFile('bad-world.json', contents);
    const result = await cli.run(['mock', '--port', '0', '--world', world]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`game-service: --world ${world}${message}`);
    expect(result.stdout).toBe('');
  });
});

describe('game-service mock: every problem of the config and world files at once', () => {
  it('names the config file and its world key for a problem of the world it names, never --world', async () => {
    jsonFile('named-world.json', { players: [{ email: 'a@example.com', ship: { name: '' } }] });
    const config = jsonFile('names-world.json', { port: 0, world: 'named-world.json' });
    const result = await cli.run(['mock', '--config', config]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `game-service: world ${join(dir, 'named-world.json')} in --config ${config}: /players/0/ship/name must NOT have fewer than 1 characters`,
    );
    expect(result.stderr).not.toContain('--world');
    expect(result.stdout).toBe('');

    const missing = jsonFile('names-missing-world.json', { port: 0, world: 'no-such-world.json' });
    const unread = await cli.run(['mock', '--config', missing]);
    expect(unread.code).toBe(2);
    expect(unread.stderr).toContain(`game-service: world ${join(dir, 'no-such-world.json')} in --config ${missing} cannot be read: ENOENT`);
    expect(unread.stderr).not.toContain('--world');
  });

  it('lists every invalid key of the config file and every invalid part of its world, exit 2, before listening', async () => {
    const world = jsonFile('flawed-world.json', {
      players: [
        { email: 'a@example.com', ship: { name: '' } },
        { email: 'not-an-address', actionPoints: 9 },
        { email: 'A@example.com', rank: 'admiral', createdAt: 'yesterday' },
      ],
    });
    const twice = { method: 'POST', path: '/api/mine' };
    const config = jsonFile('flawed.json', {
      port: 70_000,
      logFormat: 'xml',
      gameOrigin: ['http://a.test', 'game.test'],
      trustProxy: 'maybe',
      actionPoints: { max: 5, costs: { 'POST /api/dig': 1 } },
      routes: [twice, twice],
      colour: 'blue',
      world: 'flawed-world.json',
    });
    const result = await cli.run(['mock', '--config', config]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const inWorld = `world ${world} in --config ${config}`;
    const expected = [
      `--config ${config}: /trustProxy "maybe" is not on or off`,
      `--config ${config}: /port must be <= 65535`,
      `--config ${config}: /logFormat must be equal to one of the allowed values: text, json`,
      `--config ${config}: /colour is not a known key`,
      `--config ${config}: /gameOrigin "game.test" is not an origin`,
      `--config ${config}: /routes/1 repeats POST /api/mine`,
      `--config ${config}: /actionPoints/costs/POST ~1api~1dig is not a gameplay route`,
      `${inWorld}: /players/0/ship/name must NOT have fewer than 1 characters`,
      `${inWorld}: /players/1/email must be an email address, not "not-an-address"`,
      `${inWorld}: /players/2 names createdAt: the player's id, email, emailVerified, createdAt, actionPoints, maxActionPoints, ship are fields the mock keeps from its own state`,
      `${inWorld}: /players/1/actionPoints must be <= 5 (actionPoints.max)`,
      `${inWorld}: /players/2/email repeats a@example.com of /players/0/email`,
    ];
    expect(result.stderr).toContain(`game-service: ${expected.length} problems in the configuration:\n`);
    for (const line of expected) expect(result.stderr).toContain(`\n  - ${line}`);
  });

  it('lists every invalid part of a --world file', async () => {
    const world = jsonFile('flawed-flag-world.json', {
      players: [
        { email: 'a@example.com', token: 'x' },
        { email: 'b@example.com', emailVerified: 'yes' },
      ],
    });
    const result = await cli.run(['mock', '--port', '0', '--world', world]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`game-service: 2 problems in the configuration:\n`);
    expect(result.stderr).toContain(`\n  - --world ${world}: /players/0/token must be a UUID (such as 3f2c8a4e-9b1d-4c7e-8f00-5a6b7c8d9e0f), not "x"`);
    expect(result.stderr).not.toContain('pattern');
    expect(result.stderr).toContain(`\n  - --world ${world}: /players/1/emailVerified must be boolean`);
  });
});

describe('game-service mock: control API and bot check', () => {
  it('serves GET /__mock/capabilities by default and answers 404 with --no-control (or GAME_SERVICE_CONTROL=false)', async () => {
    const on = await startMock(cli, ['--port', '0']);
    expect(on.process.stdout).toContain(`  control API:  ${on.url}/__mock (loopback clients only)\n`);
    expect(await call(`${on.url}/__mock/capabilities`)).toMatchObject({ status: 200, body: { success: true } });

    for (const [args, env] of [
      [['--no-control'], {}],
      [[], { GAME_SERVICE_CONTROL: 'false' }],
    ] as const) {
      const off = await startMock(cli, ['--port', '0', ...args], env);
      expect(off.process.stdout).toContain('  control API:  off\n');
      const response = await call(`${off.url}/__mock/capabilities`);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ error: expect.any(String) });
    }
  });

  it('takes bot-check tokens from the flag, implying mode tokens', async () => {
    const { process, url } = await startMock(cli, ['--port', '0', '--bot-check-token', 'human']);
    expect(process.stdout).toContain('  bot check:    tokens (1 accepted)\n');
    const register = (challengeToken?: string) => call(`${url}/api/auth/register`, { json: { email: 'a@example.com', challengeToken } });
    expect((await register()).status).toBe(400);
    expect((await register('robot')).status).toBe(400);
    expect((await register('human')).status).toBe(200);
  });
});
