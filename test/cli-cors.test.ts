import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, useCli } from './support/cli.js';
import { call, header } from './support/http.js';

const cli = useCli();
const PAGE = 'http://localhost:5173';
const GAME = 'http://game.test';
const STRANGER = 'http://elsewhere.test';

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'game-service-cli-cors-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What a browser on `origin` learns from a preflight for `method path`, then from the request itself. */
async function fromPage(url: string, origin: string, method: string, path: string) {
  const preflight = await call(`${url}${path}`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization, content-type' },
  });
  const actual = await call(`${url}${path}`, { method, headers: { origin } });
  return {
    preflight: preflight.status,
    grant: header(preflight, 'access-control-allow-origin'),
    status: actual.status,
    readable: header(actual, 'access-control-allow-origin') === origin,
  };
}

describe('game-service mock: CORS from the command line', () => {
  it('with no flags, lets any page origin through on every path, known or not, and counts it like any caller', async () => {
    const { url } = await startMock(cli, ['--port', '0']);
    for (const [method, path, status] of [
      ['POST', '/api/auth/register', 400],
      ['GET', '/api/player', 401],
      ['GET', '/api/player/ship', 401],
      ['GET', '/api/galaxy/1/sectors', 404],
      ['PUT', '/health', 405],
    ] as const) {
      expect(await fromPage(url, STRANGER, method, path), `${method} ${path}`).toEqual({ preflight: 204, grant: STRANGER, status, readable: true });
    }
    const health = await call(`${url}/health`, { headers: { origin: STRANGER } });
    expect(header(health, 'x-ratelimit-remaining')).toMatch(/^\d+$/);
  });

  it('with --cors-origin, lets that origin and the game origins through and no other', async () => {
    const { url, process } = await startMock(cli, ['--port', '0', '--cors-origin', PAGE, '--game-origin', GAME]);
    expect(process.stdout).toContain(`CORS:         ${GAME}, ${PAGE}`);
    expect(await fromPage(url, PAGE, 'GET', '/health')).toEqual({ preflight: 204, grant: PAGE, status: 200, readable: true });
    expect(await fromPage(url, GAME, 'GET', '/health')).toEqual({ preflight: 204, grant: GAME, status: 200, readable: true });
    expect(await fromPage(url, STRANGER, 'GET', '/health')).toEqual({ preflight: 204, grant: undefined, status: 200, readable: false });
  });

  it('takes corsOrigin from the config file, and refuses one that is not an origin before listening', async () => {
    const good = join(dir, 'cors.json');
    writeFileSync(good, JSON.stringify({ port: 0, corsOrigin: [PAGE] }));
    const { url } = await startMock(cli, ['--config', good]);
    expect((await fromPage(url, STRANGER, 'GET', '/health')).readable).toBe(false);
    expect((await fromPage(url, PAGE, 'GET', '/health')).readable).toBe(true);

    const bad = join(dir, 'bad-cors.json');
    writeFileSync(bad, JSON.stringify({ port: 0, corsOrigin: 'localhost:5173' }));
    const refused = await cli.run(['mock', '--config', bad]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`--config ${bad}: /corsOrigin "localhost:5173" is not an origin`);
    const flag = await cli.run(['mock', '--cors-origin', 'nope']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('nope');
  });
});
