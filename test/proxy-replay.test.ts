import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startProxy } from '../conformance/proxy/proxy-server.js';
import { recordRoutes, writeRecordedRoutes } from '../conformance/proxy/record-routes.js';
import { startMock, useCli } from './support/cli.js';
import { startDeployment } from './support/deployment-server.js';
import { useTempDir } from './support/temp-dir.js';

/**
 * A session of the example client's calls recorded through the proxy in front of the deployment-like server
 * (compressed answers), then played again against `game-service mock --config <the recording>`, unedited: what
 * the client reads to draw its screens is the same, and a move changes the sector the ship is in.
 */

const cli = useCli();
const temp = useTempDir('proxy-replay-');
const EMAIL = 'pilot@example.com';

type Json = Record<string, unknown>;

/** What the client reads on the way: the ship before and after a move, the sectors, the sector the ship is in. */
async function session(base: string, codeFor: (email: string) => Promise<string>) {
  const call = async (method: string, path: string, token?: string, json?: unknown) => {
    const headers: Record<string, string> = { 'accept-encoding': 'br, gzip' };
    if (token !== undefined) headers['authorization'] = `Bearer ${token}`;
    if (json !== undefined) headers['content-type'] = 'application/json';
    const answer = await fetch(`${base}${path}`, { method, headers, ...(json === undefined ? {} : { body: JSON.stringify(json) }) });
    return { status: answer.status, body: (await answer.json()) as Json };
  };
  await call('POST', '/api/auth/register', undefined, { email: EMAIL });
  const { authToken } = (await call('POST', '/api/auth/verify-email', undefined, { email: EMAIL, otp: await codeFor(EMAIL) })).body as { authToken: string };
  const noShip = await call('GET', '/api/player/ship', authToken);
  const created = await call('POST', '/api/player/ship', authToken, { galaxyId: 1, shipName: 'Nomad', classId: 'merchant' });
  const sectors = await call('GET', '/api/galaxy/1/sectors', authToken);
  const ship = created.body['ship'] as Json;
  const here = await call('GET', `/api/galaxy/1/sector?id=${ship['current_sector']}`, authToken);
  const moved = await call('POST', '/api/player/ship/move', authToken, { sectorId: 3 });
  const movedShip = moved.body['ship'] as Json;
  const there = await call('GET', `/api/galaxy/1/sector?id=${movedShip['current_sector']}`, authToken);
  const reloaded = await call('GET', '/api/player/ship', authToken);
  const shipView = ({ current_sector, credits, classId, galaxyId, name }: Json) => ({ current_sector, credits, classId, galaxyId, name });
  return {
    noShip: noShip.status,
    created: shipView(ship),
    sectors: sectors.body['sectors'],
    here: here.body['sector'],
    moved: shipView(movedShip),
    there: there.body['sector'],
    reloaded: shipView(reloaded.body['ship'] as Json),
  };
}

describe('record → replay of a compressed session', { timeout: 60_000 }, () => {
  it('replays what the client reads, with no edit to the recording', async () => {
    const deployment = await startDeployment();
    const proxy = await startProxy({ target: new URL(deployment.url), port: 0, host: '127.0.0.1', gameOrigins: [], keepApiExchanges: true });
    let recorded: Awaited<ReturnType<typeof session>>;
    try {
      recorded = await session(proxy.url, async (email) => deployment.codeFor(email)!);
    } finally {
      await proxy.close();
      await deployment.close();
    }
    expect(recorded.here).toEqual({ id: 1, name: 'Sol', port: 'Earth Station' });
    expect(recorded.there).toEqual({ id: 3, name: 'Vega', port: 'Vega Outpost' });
    expect(proxy.log.byRule()).toEqual([]);

    const recording = recordRoutes(proxy.apiExchanges);
    const file = join(temp(), 'rec.json');
    await writeRecordedRoutes(file, recording.config);
    console.log(`recorded ${proxy.log.exchangeCount} exchanges as ${recording.config.routes.length} routes`);
    const written = readFileSync(file, 'utf8');
    expect(JSON.parse(written)).toMatchObject({ ship: { current_sector: 1, credits: 1000 }, routes: expect.any(Array) });
    const mock = await startMock(cli, ['--port', '0', '--config', file]);
    const replayed = await session(mock.url, async (email) => {
      const outbox = (await (await fetch(`${mock.url}/__mock/outbox?email=${encodeURIComponent(email)}`)).json()) as { messages: { code: string }[] };
      return outbox.messages[0]!.code;
    });
    expect(replayed).toEqual(recorded);
  });
});
