import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useCli } from './support/cli.js';
import { useResources } from './support/resources.js';

/**
 * `check` ends against a target that answers slowly, never, or with endless bodies: each request has a deadline
 * for its whole answer (--request-timeout), each check four times that, and once two checks ran out of time the rest
 * are skipped with the reason. Each run here must end well within those budgets, with its reports written.
 */

const cli = useCli();
const resources = useResources();
const servers: (Server | TcpServer)[] = [];
let dir = '';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'game-service-unresponsive-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          if ('closeAllConnections' in server) server.closeAllConnections();
        }),
    ),
  );
});

async function listen(server: Server | TcpServer): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Forwards a request to the in-process mock and writes its answer back. */
async function forward(upstream: string, message: IncomingMessage, response: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of message) chunks.push(chunk as Buffer);
  const { host: _host, connection: _connection, ...headers } = message.headers;
  const answer = await request(`${upstream}${message.url}`, {
    method: message.method as 'GET',
    headers: headers as Record<string, string>,
    body: chunks.length === 0 ? null : Buffer.concat(chunks),
  });
  const body = Buffer.from(await answer.body.arrayBuffer());
  const { 'transfer-encoding': _te, connection: _conn, 'keep-alive': _ka, ...answerHeaders } = answer.headers;
  response.writeHead(answer.statusCode, answerHeaders as Record<string, string>).end(body);
}

/** A deployment in front of the mock that behaves as `misbehave` says on the API's routes (/health and the control API pass). */
async function frontOfMock(misbehave: (response: ServerResponse, pass: () => Promise<void>) => Promise<void> | void): Promise<string> {
  const mock = await resources.server({ trustProxy: true });
  return listen(
    createServer((message, response) => {
      const pass = () => forward(mock.url, message, response);
      const path = message.url ?? '/';
      // The suite gives up on slow answers: the request it dropped ends here, with its socket.
      Promise.resolve(path.startsWith('/api/') ? misbehave(response, pass) : pass()).catch(() => response.destroy());
    }),
  );
}

async function runCheck(url: string, name: string, extra: string[] = []) {
  const junit = join(dir, `${name}.xml`);
  const started = Date.now();
  const run = await cli.run(['check', '--base-url', url, '--forwarded-for', '--junit', junit, ...extra], {}, 120_000);
  return { ...run, ms: Date.now() - started, junit: readFileSync(junit, 'utf8') };
}

describe('check against targets that keep it waiting', () => {
  it('a target that takes connections and never answers: exit 2 within the probe deadline, the JUnit file naming the cause', async () => {
    const sockets: Socket[] = [];
    const silent = createTcpServer((socket) => sockets.push(socket));
    const url = await listen(silent);
    const run = await runCheck(url, 'silent', ['--request-timeout', '2']);
    for (const socket of sockets) socket.destroy();
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(run.stdout + run.stderr).toMatch(/no whole answer within 2 s/);
    expect(run.junit).toMatch(/<failure[^>]*>[^<]*no whole answer within 2 s/);
    expect(run.ms, 'the probe waits 2 s per request').toBeLessThan(60_000);
  });

  it('a target whose API routes send a body that never ends: the checks that meet it fail on time, then the rest are skipped', async () => {
    const url = await frontOfMock((response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"success":');
      const drip = setInterval(() => response.write(' '), 200);
      response.on('close', () => clearInterval(drip));
    });
    const run = await runCheck(url, 'endless', ['--request-timeout', '2', '--force']);
    expect(run.code, run.stdout).toBe(1);
    expect(run.stdout).toMatch(/no whole answer within 2 s/);
    expect(run.stdout).toMatch(/the target kept 2 checks waiting past their time .*: the checks left are not run/);
    expect(run.junit).toMatch(/<skipped message="[^"]*the target kept 2 checks waiting/);
    expect(run.ms, 'two checks of 8 s at most, then skips').toBeLessThan(90_000);
  });

  it('a target whose API answers take a second each: a check that waits over its budget fails saying so, then the rest are skipped', async () => {
    const url = await frontOfMock(async (_response, pass) => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await pass();
    });
    const run = await runCheck(url, 'slow', ['--request-timeout', '3']);
    expect(run.code, run.stdout).toBe(1);
    expect(run.stdout).toMatch(/the check's time budget is spent: 12 s in all waiting on the target's answers/);
    expect(run.stdout).toMatch(/the checks left are not run/);
    expect(run.ms, 'a few checks of 12 s at most, then skips').toBeLessThan(150_000);
  });

  it('a target whose API answers are endless at full speed: each is cut at 1 MiB and fails its check, saying so', async () => {
    const url = await frontOfMock((response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pour = () => {
        while (!response.destroyed && response.write(chunk));
      };
      response.on('drain', pour);
      pour();
    });
    const run = await runCheck(url, 'flood', ['--force', '--only', 'REG-OK']);
    expect(run.code, run.stdout).toBe(1);
    expect(run.stdout).toMatch(/an answer body of more than 1 MiB, not read further/);
    expect(run.ms).toBeLessThan(60_000);
  });
});
