import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningProxy, startProxy } from '../conformance/proxy/proxy-server.js';
import { type PlantedDeparture, type RunningDeployment, startDeployment } from './support/deployment-server.js';

/**
 * The proxy in front of a deployment-like server (test/support/deployment-server.ts) that compresses its answers,
 * as a real deployment behind a CDN does: what is judged is what the client reads, decoded.
 */

const GAME_ORIGIN = 'https://play.example';
const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const each of running.splice(0).reverse()) await each.close();
});

async function proxyBefore(departures: PlantedDeparture[] = [], gameOrigin = false): Promise<{ deployment: RunningDeployment; proxy: RunningProxy }> {
  const origins = gameOrigin ? [GAME_ORIGIN] : [];
  const deployment = await startDeployment({ departures, gameOrigins: origins });
  running.push(deployment);
  const proxy = await startProxy({ target: new URL(deployment.url), port: 0, host: '127.0.0.1', gameOrigins: origins, keepApiExchanges: true });
  running.push(proxy);
  return { deployment, proxy };
}

interface Call {
  token?: string;
  json?: unknown;
  origin?: string;
  encoding?: string;
}

/** A call as a browser sends it: asking for br and gzip (fetch decodes the answer). */
async function call(base: string, method: string, path: string, extra: Call = {}) {
  const headers: Record<string, string> = { 'accept-encoding': extra.encoding ?? 'gzip, deflate, br, zstd' };
  if (extra.token !== undefined) headers['authorization'] = `Bearer ${extra.token}`;
  if (extra.origin !== undefined) headers['origin'] = extra.origin;
  if (extra.json !== undefined) headers['content-type'] = 'application/json';
  const answer = await fetch(`${base}${path}`, { method, headers, ...(extra.json === undefined ? {} : { body: JSON.stringify(extra.json) }) });
  const text = await answer.text();
  return { status: answer.status, headers: answer.headers, body: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>) };
}

/** The example client's session: sign-in (a wrong code first), a ship, the sectors, a move, the ship read again. */
async function playSession(base: string, deployment: RunningDeployment, origin?: string, encoding?: string): Promise<string> {
  const email = 'pilot@example.com';
  const at = { ...(origin === undefined ? {} : { origin }), ...(encoding === undefined ? {} : { encoding }) };
  expect((await call(base, 'POST', '/api/auth/register', { ...at, json: { email } })).status).toBe(200);
  const code = deployment.codeFor(email)!;
  const wrong = code === '000000' ? '111111' : '000000';
  expect((await call(base, 'POST', '/api/auth/verify-email', { ...at, json: { email, otp: wrong } })).status).toBe(401);
  const verified = await call(base, 'POST', '/api/auth/verify-email', { ...at, json: { email, otp: code } });
  const token = verified.body!['authToken'] as string;
  const as = { ...at, token };
  expect((await call(base, 'GET', '/api/player/ship', as)).status).toBe(404);
  expect((await call(base, 'POST', '/api/player/ship', { ...as, json: { galaxyId: 1, shipName: 'Rocinante', classId: 'scout' } })).status).toBe(200);
  await call(base, 'GET', '/api/player', as);
  await call(base, 'GET', '/api/galaxy/1/sectors', as);
  expect((await call(base, 'GET', '/api/galaxy/1/sector?id=1', as)).body).toMatchObject({ sector: { id: 1, name: 'Sol' } });
  const moved = await call(base, 'POST', '/api/player/ship/move', { ...as, json: { sectorId: 13 } });
  expect(moved.body).toMatchObject({ success: true, ship: { current_sector: 13 } });
  expect((await call(base, 'GET', '/api/galaxy/1/sector?id=13', as)).body).toMatchObject({ sector: { id: 13, name: 'Sirius' } });
  await call(base, 'GET', '/api/player/ship', as);
  await call(base, 'GET', '/api/player', as);
  return token;
}

const rulesOf = (proxy: RunningProxy) => proxy.log.byRule().map(({ side, rule, count }) => `${side} ${rule} ×${count}`);

describe('the proxy on a deployment that compresses its answers', () => {
  it('judges the decoded bodies of br and gzip answers (chunked): a session of legal choices gives no finding', async () => {
    for (const encoding of ['gzip, deflate, br, zstd', 'gzip', 'identity']) {
      const { deployment, proxy } = await proxyBefore();
      const direct = await fetch(`${deployment.url}/health`, { headers: { 'accept-encoding': encoding } });
      expect(direct.headers.get('content-encoding')).toBe(encoding === 'identity' ? null : encoding.includes('br') ? 'br' : 'gzip');
      await playSession(proxy.url, deployment, undefined, encoding);
      expect(rulesOf(proxy), encoding).toEqual([]);
      expect(proxy.log.exchangeCount).toBe(12);
      expect(proxy.log.unjudged()).toEqual([]);
      // What the proxy judged and keeps is what the client read: JSON, not compressed bytes.
      const verify = proxy.apiExchanges.find((exchange) => exchange.url.endsWith('/verify-email') && exchange.status === 200)!;
      expect(verify.body).toMatchObject({ success: true, authToken: expect.any(String) });
      await proxy.close();
      await deployment.close();
    }
  });

  it('passes the compressed bytes on unchanged', async () => {
    const { deployment, proxy } = await proxyBefore();
    const raw = (base: string) =>
      new Promise<{ encoding: string | undefined; bytes: Buffer }>((resolve, reject) => {
        request(`${base}/health`, { headers: { 'accept-encoding': 'br' } }, (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () => resolve({ encoding: answer.headers['content-encoding'], bytes: Buffer.concat(chunks) }));
        })
          .on('error', reject)
          .end();
      });
    const [direct, proxied] = [await raw(deployment.url), await raw(proxy.url)];
    expect(proxied.encoding).toBe('br');
    expect(proxied.bytes.equals(direct.bytes)).toBe(true);
  });

  it('judges HEAD without a body, and passes a 204 preflight, a 304 and a 401', async () => {
    const { deployment, proxy } = await proxyBefore();
    const head = await fetch(`${proxy.url}/health`, { method: 'HEAD', headers: { 'accept-encoding': 'gzip' } });
    expect(head.status).toBe(200);
    const preflight = await fetch(`${proxy.url}/api/player`, {
      method: 'OPTIONS',
      headers: { origin: GAME_ORIGIN, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.status).toBe(204);
    const token = await playSession(proxy.url, deployment);
    const etag = (await fetch(`${proxy.url}/api/galaxy/1/sectors`, { headers: { authorization: `Bearer ${token}` } })).headers.get('etag')!;
    const unchanged = await fetch(`${proxy.url}/api/galaxy/1/sectors`, {
      headers: { authorization: `Bearer ${token}`, 'if-none-match': etag, 'accept-encoding': 'br' },
    });
    expect(unchanged.status).toBe(304);
    expect((await call(proxy.url, 'GET', '/api/player')).status).toBe(401);
    // The read without a token is the client's departure; the server's 401 to it is right.
    expect(rulesOf(proxy)).toEqual(['client CLIENT-BEARER ×1']);
    expect(proxy.log.unjudged()).toEqual([]);
  });

  it('reports each planted departure on its rule, once the compressed verify answer tells it the player', async () => {
    const { deployment, proxy } = await proxyBefore(['player-without-success', 'reads-remaining-stuck']);
    const token = await playSession(proxy.url, deployment);
    // Reads of the table's route in a row: the player's read bucket is judged on its place in the count.
    await call(proxy.url, 'GET', '/api/player', { token });
    await call(proxy.url, 'GET', '/api/player', { token });
    expect(rulesOf(proxy)).toEqual(['server ENV-SUCCESS ×4', 'server RL-REMAINING ×2']);
  });

  it("stays silent while a game origin's requests are not counted, and reports RL-EXEMPT when the server counts them", async () => {
    const exempt = await proxyBefore([], true);
    await playSession(exempt.proxy.url, exempt.deployment, GAME_ORIGIN);
    expect(rulesOf(exempt.proxy)).toEqual([]);

    const counting = await proxyBefore(['counts-game-origin'], true);
    await playSession(counting.proxy.url, counting.deployment, GAME_ORIGIN);
    const findings = counting.proxy.log.findings.filter((finding) => finding.rule === 'RL-EXEMPT');
    expect(rulesOf(counting.proxy)).toEqual([`server RL-EXEMPT ×${findings.length}`]);
    expect(findings.length).toBeGreaterThan(0);
    expect(findings[0]!.message).toMatch(/X-RateLimit-Remaining fell from \d+ to \d+ across two requests of a game origin/);
  });

  it('leaves a decompression bomb and a corrupt gzip body unjudged, counts them, and keeps serving', async () => {
    const { deployment, proxy } = await proxyBefore();
    const token = await playSession(proxy.url, deployment);
    deployment.setBodyMode('bomb');
    const bombed = await fetch(`${proxy.url}/api/galaxy/1/sectors`, { headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'identity' } });
    expect(bombed.headers.get('content-encoding')).toBe('gzip');
    await bombed.arrayBuffer().catch(() => undefined);
    deployment.setBodyMode('corrupt');
    const corrupt = await fetch(`${proxy.url}/api/player`, { headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'identity' } });
    await corrupt.arrayBuffer().catch(() => undefined);
    deployment.setBodyMode('normal');
    expect((await call(proxy.url, 'GET', '/api/player/ship', { token })).body).toMatchObject({ success: true });
    expect(proxy.log.unjudged()).toEqual([
      { reason: 'past the decoded-size cap', count: 1 },
      { reason: 'that failed to decode', count: 1 },
    ]);
    expect(rulesOf(proxy)).toEqual([]);
    expect(proxy.log.exchangeCount).toBe(15);
    const page = (await (await fetch(`${proxy.url}/__proxy/findings`)).json()) as { unjudged: unknown };
    expect(page.unjudged).toEqual(proxy.log.unjudged());
  });
});
