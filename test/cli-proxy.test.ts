import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CliRun, type CliStartOptions, startMock, useCli } from './support/cli.js';
import { startDeployment } from './support/deployment-server.js';
import { useTempDir } from './support/temp-dir.js';

/**
 * `game-service proxy` as a user runs it: in front of `game-service mock`, stopped by a signal, its reports read
 * back. The first runs as a child process that a real SIGTERM stops; the others in this process.
 */

const cli = useCli();
const temp = useTempDir('proxy-cli-');

async function startProxy(target: string, args: readonly string[] = [], options: CliStartOptions = {}): Promise<{ process: CliRun; url: string }> {
  const process = cli.start(['proxy', '--target', target, '--port', '0', ...args], {}, options);
  const [, url = ''] = await process.waitForOutput(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
  return { process, url };
}

async function post(url: string, body: unknown): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

describe('game-service proxy', () => {
  it('exits 0 when only the other side departs (--fail-on server)', async () => {
    const mock = await startMock(cli, ['--port', '0']);
    const proxy = await startProxy(mock.url, ['--fail-on', 'server']);
    await post(`${proxy.url}/api/auth/register`, { mail: 'pilot@example.com' });
    await proxy.process.waitForOutput(/client CLIENT-REGISTER-FIELDS: email is missing/);
    proxy.process.signal('SIGINT');
    expect((await proxy.process.waitForExit()).code).toBe(0);
  });

  it('serves its findings page and data to loopback callers only, and never forwards /__proxy', async () => {
    const mock = await startMock(cli, ['--port', '0']);
    const proxy = await startProxy(mock.url);
    await post(`${proxy.url}/api/auth/register`, {});
    await proxy.process.waitForOutput(/CLIENT-REGISTER-FIELDS/);
    const page = await fetch(`${proxy.url}/__proxy/ui`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const data = (await (await fetch(`${proxy.url}/__proxy/findings`)).json()) as { findings: number; kept: { rule: string; exchange: string }[] };
    expect(data.findings).toBe(1);
    expect(data.kept[0]?.exchange).toContain('> POST');
    // fetch may not set Host: a DNS-rebound page's request, as the browser would send it.
    const rebound = await new Promise<number | undefined>((resolve, reject) => {
      get(`${proxy.url}/__proxy/findings`, { headers: { host: 'attacker.example' } }, (answer) => {
        answer.resume();
        resolve(answer.statusCode);
      }).on('error', reject);
    });
    expect(rebound).toBe(403);
    const crossSite = await fetch(`${proxy.url}/__proxy/findings`, { headers: { origin: 'https://attacker.example' } });
    expect(crossSite.status).toBe(403);
  });

  it("passes an event stream through as it flows (the mock's journal), and a preflight's CORS answer unchanged", async () => {
    const mock = await startMock(cli, ['--port', '0']);
    const proxy = await startProxy(mock.url);
    const stream = await fetch(`${proxy.url}/__mock/journal/stream?limit=0`);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = stream.body!.getReader();
    await fetch(`${proxy.url}/health`);
    let received = '';
    while (!received.includes('"path":"/health"')) {
      const { value, done } = await reader.read();
      if (done) break;
      received += new TextDecoder().decode(value);
    }
    expect(received).toContain('"path":"/health"');
    await reader.cancel();
    const preflight = {
      method: 'OPTIONS',
      headers: { origin: 'https://game.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    };
    const [direct, proxied] = await Promise.all([fetch(`${mock.url}/api/auth/register`, preflight), fetch(`${proxy.url}/api/auth/register`, preflight)]);
    expect(proxied.status).toBe(direct.status);
    const cors = (answer: Response) => [...answer.headers].filter(([name]) => name.startsWith('access-control-'));
    expect(cors(proxied)).toEqual(cors(direct));
  });

  it('ends with its summary and reports on a Ctrl+C that comes while it still probes its target', async () => {
    // A target that takes connections and never answers: the probe waits its whole bound.
    const held = new Set<Socket>();
    const silent = createServer((socket) => void held.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const json = join(temp(), 'findings.json');
    try {
      const proxy = await startProxy(`http://127.0.0.1:${(silent.address() as AddressInfo).port}`, ['--json', json]);
      proxy.process.signal('SIGINT');
      const exit = await proxy.process.waitForExit();
      expect(exit.code, proxy.process.stderr).toBe(0);
      expect(proxy.process.stdout).toContain('SIGINT: stopped.');
      expect(existsSync(json)).toBe(true);
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('answers 502 with an error envelope when the target does not answer', async () => {
    const proxy = await startProxy('http://127.0.0.1:9');
    const answer = await fetch(`${proxy.url}/health`);
    expect(answer.status).toBe(502);
    expect(((await answer.json()) as { error: string }).error).toMatch(/did not answer \(ECONNREFUSED\)/);
  });

  it('refuses a target that is no URL and a port in use before it starts (exit 2)', async () => {
    const bad = await cli.run(['proxy', '--target', 'localhost:8080']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--target "localhost:8080" is not an http\(s\) base URL/);
    const mock = await startMock(cli, ['--port', '0']);
    const taken = await cli.run(['proxy', '--target', mock.url, '--port', String(mock.port)]);
    expect(taken.code).toBe(2);
    expect(taken.stderr).toMatch(/cannot start the proxy: 127\.0\.0\.1:\d+ is already in use/);
  });

  it('writes no token or code in any report: the HAR, the JSON, the recording, the findings page', async () => {
    const deployment = await startDeployment({ departures: ['token-for-30-days', 'player-without-success'] });
    const dir = temp();
    const files = { json: join(dir, 'findings.json'), har: join(dir, 'session.har'), record: join(dir, 'rec.json') };
    try {
      const proxy = await startProxy(deployment.url, ['--json', files.json, '--har', files.har, '--record', files.record]);
      const email = 'pilot@example.com';
      await post(`${proxy.url}/api/auth/register`, { email });
      const code = deployment.codeFor(email)!;
      const verified = (await (await post(`${proxy.url}/api/auth/verify-email`, { email, otp: code })).json()) as { authToken: string };
      const token = verified.authToken;
      const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      await fetch(`${proxy.url}/api/player/ship`, { method: 'POST', headers: auth, body: JSON.stringify({ galaxyId: 1, shipName: 'Rocinante' }) });
      // A client that puts its token in a query, and a route that answers with a code.
      await fetch(`${proxy.url}/api/galaxy/1/sector?id=1&token=${token}`, { headers: auth });
      await fetch(`${proxy.url}/api/player`, { headers: auth });
      await proxy.process.waitForOutput(/server TOKEN-LIFETIME/);
      await proxy.process.waitForOutput(/server ENV-SUCCESS/);
      const page = await (await fetch(`${proxy.url}/__proxy/findings`)).text();
      proxy.process.signal('SIGTERM');
      await proxy.process.waitForExit();
      const reports = {
        page,
        stdout: proxy.process.stdout,
        json: readFileSync(files.json, 'utf8'),
        har: readFileSync(files.har, 'utf8'),
        record: readFileSync(files.record, 'utf8'),
      };
      // The verification is in the findings (its token's lifetime), so its body and request are in every report.
      expect(reports.json).toContain('"authToken\\":\\"');
      expect(reports.page).toContain('authToken');
      expect(JSON.parse(reports.har).log.entries).toHaveLength(5);
      for (const [name, text] of Object.entries(reports)) {
        expect(text, name).not.toContain(token);
        expect(text, name).not.toContain(token.slice(9));
        expect(text, name).not.toMatch(new RegExp(`\\b${code}\\b`));
      }
    } finally {
      await deployment.close();
    }
  });

  it('counts in its summary the answers it passed on unjudged: a decompression bomb, a corrupt body', async () => {
    const deployment = await startDeployment();
    try {
      const proxy = await startProxy(deployment.url);
      // fetch decodes gzip as a browser does, and fails on both bodies: the client's trouble, not the proxy's.
      const read = async () => (await fetch(`${proxy.url}/api/player`)).arrayBuffer().catch(() => undefined);
      deployment.setBodyMode('bomb');
      await read();
      deployment.setBodyMode('corrupt');
      await read();
      deployment.setBodyMode('normal');
      expect((await fetch(`${proxy.url}/health`)).status).toBe(200);
      proxy.process.signal('SIGTERM');
      expect((await proxy.process.waitForExit()).code).toBe(0);
      expect(proxy.process.stdout).toMatch(/\n3 exchanges, 0 server findings, 0 client findings\n/);
      expect(proxy.process.stdout).toContain('1 exchange passed on unjudged: a body past the decoded-size cap');
      expect(proxy.process.stdout).toContain('1 exchange passed on unjudged: a body that failed to decode');
    } finally {
      await deployment.close();
    }
  });

  it('--record writes the routes beyond the table, which `mock --config` then serves', async () => {
    const config = join(temp(), 'mock.json');
    const routes = join(temp(), 'routes.json');
    writeFileSync(
      routes,
      JSON.stringify({
        routes: [{ method: 'GET', path: '/api/galaxy/:galaxyId/sectors', category: 'public', response: { galaxyId: '{{params.galaxyId}}', sectors: [1, 2] } }],
      }),
    );
    const mock = await startMock(cli, ['--port', '0', '--config', routes]);
    const proxy = await startProxy(mock.url, ['--record', config]);
    const recorded = await (await fetch(`${proxy.url}/api/galaxy/7/sectors`)).json();
    proxy.process.signal('SIGTERM');
    await proxy.process.waitForExit();
    expect(proxy.process.stdout).toMatch(new RegExp(`Recorded 1 route to ${config.replaceAll('.', '\\.')}`));
    expect(proxy.process.stdout).toContain(`  and the client's session, 1 request in order: game-service check --base-url URL --recording ${config} checks`);
    const replay = await startMock(cli, ['--port', '0', '--config', config]);
    expect(await (await fetch(`${replay.url}/api/galaxy/7/sectors`)).json()).toEqual(recorded);
  });
});
