import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, useCli } from './support/cli.js';
import { call, header } from './support/http.js';

const cli = useCli();
const TOKEN = '0b9c7f3e-8d2a-4c1b-9e6f-5a4d3c2b1a00';
const auth = { authorization: `Bearer ${TOKEN}` };

/** A module of handlers as a client developer writes one: TypeScript, the context's type from the package. */
const ROUTES_TS = `import type { RouteHandlerContext } from 'game-service-harness';

export function digest(context: RouteHandlerContext) {
  const seen = (context.state.get('digests') as number | undefined) ?? 0;
  context.state.set('digests', seen + 1);
  return { digest: \`\${seen + 1} for \${context.player?.email}\`, since: context.query['since'] ?? null };
}

export const notAHandler = 42;
`;

const CONFIG = {
  port: 0,
  world: 'pilots.json',
  routes: [
    { method: 'GET', path: '/api/galaxy/:galaxyId/sectors', category: 'read', response: { galaxyId: '{{params.galaxyId}}', current: '{{state.sector ?? 1}}' } },
    {
      method: 'POST',
      path: '/api/player/ship/move',
      category: 'gameplay',
      cost: 1,
      state: { sector: '{{body.sectorId}}' },
      response: { sector: '{{state.sector}}' },
    },
    { method: 'GET', path: '/api/notifications/digest', category: 'read', module: './routes.ts', handler: 'digest' },
  ],
};

let dir = '';

/** Waits for what a background process does, without a fixed limit below the test's own. */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 50) {
    if (waited > 30_000) throw new Error(`waited 30 s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
function jsonFile(name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'game-service-cli-routes-'));
  jsonFile('routes.ts', ROUTES_TS);
  jsonFile('pilots.json', { players: [{ email: 'pilot@example.com', token: TOKEN }] });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('game-service mock --config with routes of your own', () => {
  it("serves template routes and a TypeScript module's handler, relative to the config file", async () => {
    const { url } = await startMock(cli, ['--config', jsonFile('mock.json', CONFIG)]);
    expect((await call(`${url}/api/galaxy/1/sectors`, { headers: auth })).body).toEqual({ success: true, galaxyId: '1', current: 1 });
    const moved = await call(`${url}/api/player/ship/move`, { json: { sectorId: 7 }, headers: auth });
    expect(moved).toMatchObject({ status: 200, body: { success: true, sector: 7 } });
    expect(header(moved, 'x-actionpoints-remaining')).toBe('59');
    expect((await call(`${url}/api/galaxy/1/sectors`, { headers: auth })).body).toMatchObject({ current: 7 });
    const digest = await call(`${url}/api/notifications/digest?since=monday`, { headers: auth });
    expect(digest.body).toEqual({ success: true, digest: '1 for pilot@example.com', since: 'monday' });
    const listed = await call(`${url}/__mock/routes`);
    expect((listed.body as { routes: { id: string; source: string }[] }).routes.at(-1)).toMatchObject({
      id: 'GET /api/notifications/digest',
      source: './routes.ts#digest',
    });
  });

  it('keeps route state across a restart on the same --state file', async () => {
    const state = join(dir, 'routes.db');
    const config = jsonFile('stateful.json', CONFIG);
    const first = await startMock(cli, ['--config', config, '--state', state]);
    await call(`${first.url}/api/player/ship/move`, { json: { sectorId: 12 }, headers: auth });
    first.process.signal('SIGTERM');
    await first.process.waitForExit();
    const second = await startMock(cli, ['--config', config, '--state', state]);
    expect((await call(`${second.url}/api/galaxy/3/sectors`, { headers: auth })).body).toMatchObject({ current: 12 });
  });

  it('refuses a bad route file before listening, exit 2, every problem named by its JSON path', async () => {
    const config = jsonFile('bad.json', {
      port: 0,
      routes: [
        { method: 'GET', path: '/api/ok' },
        { method: 'GET', path: '/health/extra' },
        { method: 'GET', path: '/api/news', category: 'public', state: { seen: true }, response: { who: '{{player.email}}' } },
        { method: 'GET', path: '/api/gone', module: './missing.ts' },
        { method: 'GET', path: '/api/odd', module: './routes.ts', handler: 'notAHandler' },
        { method: 'GET', path: '/api/none', module: './routes.ts', handler: 'nothing' },
        { method: 'GET', path: '/api/read', cost: 2, response: { x: '{{request.id}}' } },
        { method: 'GET', path: '/api/ok' },
        { method: 'POST', path: '/api/player/ship' },
      ],
    });
    const result = await cli.run(['mock', '--config', config]);
    expect(result.code).toBe(2);
    expect(result.stdout).not.toContain('listening');
    const lines = result.stderr.trim().split('\n');
    expect(lines[0]).toBe('game-service: 10 problems in the configuration:');
    expect(lines.slice(1).map((line) => line.replace(`  - --config ${config}: `, ''))).toEqual([
      '/routes/1/path "/health/extra" must start with /api/',
      '/routes/2/state is kept per player, and a public route has no player',
      '/routes/2/response/who {{player.email}} reads player, which a public route does not have: it answers without a token',
      "/routes/6/cost is for gameplay routes; this one's category is read",
      '/routes/6/response/x {{request.id}} refers to request, which no template can read; expected one of params, query, body, player, ship, state, now, counter',
      '/routes/7 repeats GET /api/ok',
      '/routes/8 POST /api/player/ship is the row "POST {base_url}/api/player/ship" (createShip) of the spec\'s Endpoints table, which the mock answers as the spec says; a route may add a method to its path, or replace a route the mock adds beyond the table (GET /api/player/ship), not a row of the table',
      expect.stringMatching(/^\/routes\/3\/module: cannot load \.\/missing\.ts: Cannot find module/),
      '/routes/4/handler: ./routes.ts exports "notAHandler" as a number, not a function; its function exports: digest',
      '/routes/5/handler: ./routes.ts has no export "nothing"; its function exports: digest',
    ]);
  });

  it('--watch serves the file as it is saved (its modules imported again), and refuses a broken save naming its problems', async () => {
    const watched = (routes: unknown[]) => jsonFile('watched.json', { port: 0, world: 'pilots.json', routes });
    const config = watched([{ method: 'GET', path: '/api/news', response: { headline: 'first' } }]);
    const { process: mock, url } = await startMock(cli, ['--config', config, '--watch']);
    const read = async (path: string) => (await call(`${url}${path}`, { headers: auth })).body;
    expect(await read('/api/news')).toEqual({ success: true, headline: 'first' });

    jsonFile('edition.mjs', 'export default () => ({ edition: 1 });\n');
    const news = { method: 'GET', path: '/api/news', response: { headline: 'second' } };
    watched([news, { method: 'GET', path: '/api/edition', module: './edition.mjs' }]);
    await mock.waitForOutput(/Reloaded --config .*watched\.json: 2 routes of your own served from now on\n/);
    expect(await read('/api/news')).toEqual({ success: true, headline: 'second' });
    expect(await read('/api/edition')).toEqual({ success: true, edition: 1 });

    // A route added over HTTP while the file is watched answers until the file is read again.
    const posted = await call(`${url}/__mock/routes`, { json: { method: 'GET', path: '/api/posted/:id', response: { id: '{{params.id}}' } } });
    expect(posted).toMatchObject({ status: 200, body: { replaced: false, route: { id: 'GET /api/posted/:id', source: 'config' } } });
    expect(await read('/api/posted/4')).toEqual({ success: true, id: '4' });

    jsonFile('edition.mjs', 'export default () => ({ edition: 2 });\n');
    watched([news, { method: 'GET', path: '/api/edition', module: './edition.mjs' }, { method: 'POST', path: '/api/mine', cost: 2 }]);
    await mock.waitForOutput(/: 3 routes of your own served from now on\n/);
    expect(await read('/api/edition')).toEqual({ success: true, edition: 2 });
    const listed = (await call(`${url}/__mock/routes`)).body as { routes: { id: string; cost: number | null }[] };
    expect(listed.routes.find((route) => route.id === 'POST /api/mine')?.cost).toBe(2);
    expect((await call(`${url}/api/posted/4`, { headers: auth })).status).toBe(404);
    const removed = await call(`${url}/__mock/routes/${encodeURIComponent('POST /api/mine')}`, { method: 'DELETE' });
    expect(removed).toMatchObject({ status: 200, body: { removed: { id: 'POST /api/mine', cost: 2 } } });

    watched([{ method: 'GET', path: '/health/extra' }]);
    await until(() => mock.stderr.includes('Not reloaded'), 'the refusal of a broken save');
    expect(mock.stderr).toContain(`Not reloaded: --config ${config} has problems; the running routes stay.`);
    expect(mock.stderr).toContain('/routes/0/path "/health/extra" must start with /api/');
    expect(await read('/api/edition')).toEqual({ success: true, edition: 2 });
  });

  it('refuses --watch without a --config file to watch, exit 2', async () => {
    const result = await cli.run(['mock', '--watch']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--watch reads the --config file again when it changes: name one with --config FILE');
  });

  it('passes check and fuzz against a mock with routes configured', async () => {
    const { url } = await startMock(cli, ['--config', jsonFile('checked.json', CONFIG)]);
    const checked = await cli.run(['check', '--base-url', url], {}, 180_000);
    expect(checked.stderr).toBe('');
    expect(checked.code).toBe(0);
    const fuzzed = await cli.run(['fuzz', '--base-url', url, '--num-runs', '10', '--seed', '3'], {}, 120_000);
    expect(fuzzed.code).toBe(0);
    expect(fuzzed.stdout).toContain('No disagreement found');
  }, 300_000);
});
