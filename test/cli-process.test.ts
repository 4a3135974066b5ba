import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, startMock, useCli } from './support/cli.js';
import { followCpuTime } from './support/cpu-time.js';
import { harErrors } from './support/har-validator.js';
import { call } from './support/http.js';
import { useTempDir } from './support/temp-dir.js';

/**
 * The commands as child processes of the built bin, for what only a process shows: a signal from outside, a run's
 * own CPU time, a session without a terminal. Every other test runs the CLI in its own process (test/support/cli.ts).
 */

const cli = useCli();
const temp = useTempDir('cli-process-');
/**
 * The whole suite against the embedded mock in under 20 seconds, as its CPU time (the embedded mock and the
 * checks' thread run in its one process): the wall time on a machine others load measures them too.
 */
const BUDGET_MS = 20_000;
const EMBEDDED = 'Using the embedded mock';

beforeAll(() => assertBuilt());

async function post(url: string, body: unknown): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

describe('game-service as a child process', () => {
  it('mock: stops on SIGTERM with exit code 0, closing idle keep-alive connections', async () => {
    const signal = 'SIGTERM';
    const { process, url } = await startMock(cli, ['--port', '0'], {}, { process: true });
    const agent = new Agent({ keepAliveTimeout: 60_000 });
    try {
      expect((await call(`${url}/health`, { dispatcher: agent })).status).toBe(200);
      const signalledAt = Date.now();
      process.signal(signal);
      const exit = await process.waitForExit(30_000);
      expect(exit).toEqual({ code: 0, signal: null });
      // Before the 5 s grace period ends: an idle connection must not hold the shutdown until then.
      expect(Date.now() - signalledAt).toBeLessThan(4_900);
      expect(process.stdout).toContain(`${signal} received: closing connections and stopping.\n`);
      expect(process.stderr).toBe('');
    } finally {
      await agent.close();
    }
  });

  it(
    'check: passes every check against the embedded mock, in under 20 s',
    async () => {
      const started = Date.now();
      const run = cli.start(['check'], {}, { process: true });
      const cpu = followCpuTime(run.child.pid!);
      const exit = await run.waitForExit(10 * BUDGET_MS).finally(() => cpu.stop());
      const result = { ...exit, stdout: run.stdout, stderr: run.stderr };
      const elapsed = cpu.result() ?? Date.now() - started;
      const output = `stdout: ${result.stdout.slice(-4_000)}\nstderr: ${result.stderr.slice(-2_000)}`;
      expect(result.code, output).toBe(0);
      const summary = /\n(\d+) passed, 0 failed, \d+ skipped \(seed \d+; replay with --seed \d+\)\n/.exec(result.stdout);
      expect(summary, output).not.toBeNull();
      expect(Number(summary![1])).toBeGreaterThan(0);
      expect(elapsed, `the suite took ${elapsed} ms of CPU (${Date.now() - started} ms of wall time)`).toBeLessThan(BUDGET_MS);
    },
    12 * BUDGET_MS,
  );

  it('check: --otp-source prompt without a terminal (as in CI) exits 2 before anything starts', async () => {
    const result = await cli.run(['check', '--otp-source', 'prompt'], {}, 15_000, { detached: true });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('--otp-source prompt needs a terminal');
    expect(result.stdout).not.toContain(EMBEDDED);
  });

  it('proxy: forwards unchanged, prints a client departure as it happens, and at SIGTERM exits by --fail-on with its reports written', async () => {
    const mock = await startMock(cli, ['--port', '0']);
    const dir = temp();
    const files = { json: join(dir, 'findings.json'), junit: join(dir, 'findings.xml'), har: join(dir, 'traffic.har') };
    const process = cli.start(
      ['proxy', '--target', mock.url, '--port', '0', '--fail-on', 'client', '--json', files.json, '--junit', files.junit, '--har', files.har],
      {},
      { process: true },
    );
    const [, url = ''] = await process.waitForOutput(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    const proxy = { process, url };
    const direct = await (await fetch(`${mock.url}/health`)).json();
    const proxied = await fetch(`${proxy.url}/health`);
    expect(await proxied.json()).toEqual(direct);
    expect(proxied.headers.get('x-ratelimit-limit')).toBe('60');
    const registered = await post(`${proxy.url}/api/auth/register`, { email: 'pilot@example.com', turnstileToken: 'XXXX.DUMMY' });
    expect(registered.status).toBe(200);
    await proxy.process.waitForOutput(
      /client CLIENT-REGISTER-FIELDS: sends turnstileToken, which the spec does not name .*\(POST \/api\/auth\/register → 200\)/,
    );
    proxy.process.signal('SIGTERM');
    const exit = await proxy.process.waitForExit();
    expect(exit.code, proxy.process.stdout).toBe(1);
    expect(proxy.process.stdout).toMatch(/2 exchanges, 0 server findings, 1 client finding/);
    const json = JSON.parse(readFileSync(files.json, 'utf8')) as {
      findings: { client: number; server: number };
      kept: { rule: string; side: string; sentences: string[] }[];
    };
    expect(json.findings).toEqual({ client: 1, server: 0 });
    expect(json.kept[0]).toMatchObject({
      rule: 'CLIENT-REGISTER-FIELDS',
      side: 'client',
      sentences: ['EP-REGISTER', 'RES-REGISTER-EMAIL', 'RES-REGISTER-CHALLENGE'],
    });
    const junit = readFileSync(files.junit, 'utf8');
    expect(junit).toMatch(/<testsuite name="game-service proxy: client" tests="7" failures="1"/);
    expect(junit).toMatch(/<testsuite name="game-service proxy: server" tests="\d+" failures="0"/);
    const har = JSON.parse(readFileSync(files.har, 'utf8')) as { log: { entries: { request: { url: string } }[] } };
    expect(harErrors(har)).toEqual([]);
    expect(har.log.entries.map((entry) => new URL(entry.request.url).pathname)).toEqual(['/health', '/api/auth/register']);
  });
});
