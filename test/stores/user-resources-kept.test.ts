import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliSignal, startMock, useCli } from '../support/cli.js';
import { call } from '../support/http.js';
import { RedisServer } from '../support/redis-server.js';
import { useTempDir } from '../support/temp-dir.js';

const cli = useCli();
const tempDir = useTempDir('user-resources');
const redis = new RedisServer();

beforeAll(() => redis.start(), 20_000);
afterAll(() => redis.dispose());

/** A config that gives ships and players fields of the user's, and a move that writes into both. */
function configFile(): string {
  const path = join(tempDir(), 'mock.json');
  const config = {
    ship: { current_sector: 1, credits: 1000, serial: '{{counter}}' },
    player: { rank: 'cadet' },
    routes: [{ method: 'POST', path: '/api/player/ship/move', ship: { current_sector: '{{body.sectorId}}' }, player: { rank: 'pilot' } }],
  };
  writeFileSync(path, JSON.stringify(config));
  return path;
}

/** Signs in from `ip` (as the first X-Forwarded-For hop, read with --trust-proxy), so that each sign-in has its own auth bucket. */
async function signIn(url: string, email: string, ip = '127.0.0.1'): Promise<string> {
  const headers = { 'x-forwarded-for': ip };
  expect((await call(`${url}/api/auth/register`, { json: { email }, headers })).status).toBe(200);
  const outbox = await call(`${url}/__mock/outbox?email=${encodeURIComponent(email)}`);
  const [message] = (outbox.body as { messages: { code: string }[] }).messages;
  const verified = await call(`${url}/api/auth/verify-email`, { json: { email, otp: message!.code }, headers });
  return (verified.body as { authToken: string }).authToken;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Plays a session on a first process, kills it with `signal`, and reads the resources back from a second one. */
async function keptAcrossRestart(storeArgs: readonly string[], signal: CliSignal) {
  const args = ['--port', '0', '--config', configFile(), ...storeArgs];
  // SIGKILL can only end a child process.
  const first = await startMock(cli, args, {}, { process: signal === 'SIGKILL' });
  const token = await signIn(first.url, 'pilot@example.com');
  expect((await call(`${first.url}/api/player/ship`, { method: 'POST', json: { name: 'Nomad' }, headers: bearer(token) })).status).toBe(200);
  expect((await call(`${first.url}/api/player/ship/move`, { method: 'POST', json: { sectorId: 5 }, headers: bearer(token) })).status).toBe(200);
  first.process.signal(signal);
  await first.process.exited;

  const second = await startMock(cli, args);
  const ship = await call(`${second.url}/api/player/ship`, { headers: bearer(token) });
  expect(ship.body).toMatchObject({ success: true, ship: { name: 'Nomad', current_sector: 5, credits: 1000, serial: 1 } });
  const player = await call(`${second.url}/api/player`, { headers: bearer(token) });
  expect(player.body).toMatchObject({ player: { rank: 'pilot', ship: { current_sector: 5 } } });
  const other = await signIn(second.url, 'other@example.com');
  const made = await call(`${second.url}/api/player/ship`, { method: 'POST', json: { name: 'Wren' }, headers: bearer(other) });
  return (made.body as { ship: { serial: number } }).ship.serial;
}

describe("the fields of the user's ship and player, kept by a store across a restart", () => {
  it('a state file keeps them through kill -9, and the counter goes on from the highest kept', async () => {
    expect(await keptAcrossRestart(['--state', join(tempDir(), 'state.db')], 'SIGKILL')).toBe(2);
  }, 60_000);

  it('Redis keeps them for the next process, whose counter goes on past the numbers taken before', async () => {
    expect(await keptAcrossRestart(['--store', redis.url, '--store-prefix', 'resources:'], 'SIGTERM')).toBeGreaterThan(1);
  }, 60_000);

  it('processes sharing one Redis never give two ships one number', async () => {
    const args = ['--port', '0', '--trust-proxy', '--config', configFile(), '--store', redis.url, '--store-prefix', 'shared-counter:'];
    const [a, b] = await Promise.all([startMock(cli, args), startMock(cli, args)]);
    // One after another, each on the other process: each takes numbers from its own block of the shared counter.
    const serials: number[] = [];
    for (let index = 0; index < 6; index++) {
      const url = index % 2 === 0 ? a.url : b.url;
      const token = await signIn(url, `pilot${index}@example.com`, `10.7.0.${index + 1}`);
      const made = await call(`${url}/api/player/ship`, { method: 'POST', json: { name: `S${index}` }, headers: bearer(token) });
      expect(made.body).toMatchObject({ success: true });
      serials.push((made.body as { ship: { serial: number } }).ship.serial);
    }
    expect(new Set(serials).size).toBe(6);
  }, 60_000);
});
