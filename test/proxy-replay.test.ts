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

/** A client of `base`: each call's status, body and the headers a replay marks. */
function clientOf(base: string) {
  return async (method: string, path: string, token?: string, json?: unknown) => {
    const headers: Record<string, string> = { 'accept-encoding': 'br, gzip' };
    if (token !== undefined) headers['authorization'] = `Bearer ${token}`;
    if (json !== undefined) headers['content-type'] = 'application/json';
    const answer = await fetch(`${base}${path}`, { method, headers, ...(json === undefined ? {} : { body: JSON.stringify(json) }) });
    return {
      status: answer.status,
      body: (await answer.json()) as Json,
      generalisedFrom: answer.headers.get('x-mock-generalised'),
      points: answer.headers.get('x-actionpoints-remaining'),
    };
  };
}

async function signIn(call: ReturnType<typeof clientOf>, email: string, codeFor: (email: string) => Promise<string>): Promise<string> {
  await call('POST', '/api/auth/register', undefined, { email });
  return ((await call('POST', '/api/auth/verify-email', undefined, { email, otp: await codeFor(email) })).body as { authToken: string }).authToken;
}

/** What the client reads on the way: the ship before and after a move, the sectors, the sector the ship is in. */
async function session(base: string, codeFor: (email: string) => Promise<string>) {
  const call = clientOf(base);
  const authToken = await signIn(call, EMAIL, codeFor);
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

    // Another player takes another path than the one recorded: another sector, one the recording never saw.
    const call = clientOf(mock.url);
    const token = await signIn(call, 'other@example.com', async (email) => {
      const outbox = (await (await fetch(`${mock.url}/__mock/outbox?email=${encodeURIComponent(email)}`)).json()) as { messages: { code: string }[] };
      return outbox.messages[0]!.code;
    });
    const created = await call('POST', '/api/player/ship', token, { galaxyId: 1, shipName: 'Drifter', classId: 'scout' });
    const moved = await call('POST', '/api/player/ship/move', token, { sectorId: 10 });
    const there = await call('GET', '/api/galaxy/1/sector?id=10', token);
    const again = await call('POST', '/api/player/ship/move', token, { sectorId: 13 });
    const reloaded = await call('GET', '/api/player/ship', token);
    const calls = [created, moved, there, again, reloaded];
    console.log(
      `replay off the recorded path: ${calls.filter((each) => each.status >= 300).length} of ${calls.length} requests not 2xx, ${calls.filter((each) => each.generalisedFrom !== null).length} generalised`,
    );
    expect(calls.map((each) => each.status)).toEqual([200, 200, 200, 200, 200]);
    expect(moved.body['ship']).toMatchObject({ current_sector: 10 });
    expect(there).toMatchObject({ body: { sector: { id: 10 } }, generalisedFrom: 'query id=1' });
    expect(reloaded.body['ship']).toMatchObject({ current_sector: 13 });
    // The ship's turns counted the deployment's points down: replayed, they are the mock's points, falling with each move.
    const turns = calls.filter((each) => each !== there).map((each) => (each.body['ship'] as Json)['turns']);
    expect(turns).toEqual([Number(created.points), Number(moved.points), Number(again.points), Number(again.points)]);
    expect(Number(again.points)).toBe(Number(created.points) - 2);
  });
});
