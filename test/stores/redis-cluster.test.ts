import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock as startMockInProcess } from '../../src/index.js';
import { CliProcess, startMock, useCli } from '../support/cli.js';
import { call } from '../support/http.js';
import { RedisServer } from '../support/redis-server.js';

const cli = useCli();
const redis = new RedisServer();
let cluster: { process: CliProcess; url: string };

beforeAll(async () => {
  await redis.start();
  // Started by hand, not through useCli: it serves every test of the file.
  const process = new CliProcess(['mock', '--port', '0', '--trust-proxy', '--workers', '2', '--store', redis.url, '--store-prefix', 'cluster:'], {});
  const [, url = ''] = await process.waitForOutput(/listening on (http:\/\/127\.0\.0\.1:\d+)\n/, 30_000);
  await process.waitForOutput(/2 workers\n/);
  cluster = { process, url };
}, 40_000);

afterAll(async () => {
  cluster?.process.child.kill('SIGTERM');
  await cluster?.process.exited;
  await redis.dispose();
});

const from = (ip: string, headers: Record<string, string> = {}) => ({ 'x-forwarded-for': ip, ...headers });

async function signIn(url: string, email: string, ip: string, verifyUrl = url): Promise<string> {
  expect((await call(`${url}/api/auth/register`, { json: { email }, headers: from(ip) })).status).toBe(200);
  const outbox = await call(`${url}/__mock/outbox?email=${encodeURIComponent(email)}`);
  const [message] = (outbox.body as { messages: { code: string }[] }).messages;
  const verified = await call(`${verifyUrl}/api/auth/verify-email`, { json: { email, otp: message!.code }, headers: from(ip) });
  expect(verified.status).toBe(200);
  return (verified.body as { authToken: string }).authToken;
}

const statuses = (answers: { status: number }[]) => answers.map((answer) => answer.status).filter((status) => status === 200).length;

describe('game-service mock --workers 2 --store redis://… (one Redis, two processes)', () => {
  it('answers exactly 5 of 200 concurrent auth requests from one client address with 200 in a window', async () => {
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        call(`${cluster.url}/api/auth/register`, { json: { email: `burst-${index}@example.com` }, headers: from('10.9.0.1') }),
      ),
    );
    expect(statuses(answers)).toBe(5);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(195);
  }, 30_000);

  it('answers exactly 60 of 200 concurrent reads of one player with 200 in a window', async () => {
    const token = await signIn(cluster.url, 'reader@example.com', '10.9.0.2');
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, index) => call(`${cluster.url}/api/player`, { headers: from(`10.9.1.${index}`, { authorization: `Bearer ${token}` }) })),
    );
    expect(statuses(answers)).toBe(60);
  }, 30_000);

  it('passes game-service check and game-service fuzz', async () => {
    const checked = await cli.run(['check', '--base-url', cluster.url], {}, 120_000);
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);
    const fuzzed = await cli.run(['fuzz', '--base-url', cluster.url, '--num-runs', '10', '--seed', '3'], {}, 120_000);
    expect(fuzzed.code, fuzzed.stdout + fuzzed.stderr).toBe(0);
  }, 240_000);
});

describe('separate mock processes on one Redis', () => {
  it('verifies a code registered through another process, and shows a clock moved through one to the other within 100 ms', async () => {
    const args = ['--port', '0', '--trust-proxy', '--store', redis.url, '--store-prefix', 'pair:'];
    const [first, second] = await Promise.all([startMock(cli, args), startMock(cli, args)]);
    const token = await signIn(first.url, 'traveller@example.com', '10.9.2.1', second.url);
    expect((await call(`${first.url}/api/player`, { headers: from('10.9.2.1', { authorization: `Bearer ${token}` }) })).status).toBe(200);

    const moved = await call(`${first.url}/__mock/clock`, { json: { advanceMs: 3_600_000, frozen: true } });
    const { nowMs } = moved.body as { nowMs: number };
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await call(`${second.url}/__mock/clock`)).body).toMatchObject({ nowMs, frozen: true });
  }, 60_000);
});

describe('a program and the CLI on one Redis, neither naming a key prefix', () => {
  it("is one service: startMock({ store }) keeps its keys under the CLI's default prefix", async () => {
    const quiet = { listening() {}, otp() {}, request() {}, error() {}, store() {}, stopping() {} };
    const inProcess = await startMockInProcess({ port: 0, host: '127.0.0.1', gameOrigins: [], trustProxy: true, store: redis.url, logger: quiet });
    try {
      const fromCli = await startMock(cli, ['--port', '0', '--trust-proxy', '--store', redis.url]);
      const token = await signIn(inProcess.url, 'both-ways@example.com', '10.9.3.1', fromCli.url);
      const player = await call(`${fromCli.url}/api/player`, { headers: from('10.9.3.1', { authorization: `Bearer ${token}` }) });
      expect(player.status).toBe(200);
    } finally {
      await inProcess.close();
    }
  }, 60_000);
});

describe('Redis unreachable', () => {
  it('answers 503 with the envelope and Retry-After, /health 503, lets nothing through, and recovers by itself', async () => {
    const mock = await startMock(cli, ['--port', '0', '--trust-proxy', '--store', redis.url, '--store-prefix', 'outage:']);
    const token = await signIn(mock.url, 'outage@example.com', '10.9.3.1');
    const read = () => call(`${mock.url}/api/player`, { headers: from('10.9.3.2', { authorization: `Bearer ${token}` }) });
    let stopped = false;
    const load = (async () => {
      const seen: number[] = [];
      while (!stopped) seen.push((await read()).status);
      return seen;
    })();
    await redis.stop();
    const down = await read();
    expect(down.status).toBe(503);
    expect(down.headers['retry-after']).toMatch(/^\d+$/);
    expect(down.body).toEqual({ error: expect.stringContaining('cannot be reached') });
    const health = await call(`${mock.url}/health`);
    expect(health.status).toBe(503);
    expect((health.body as { status: string }).status).not.toBe('ok');

    await redis.start();
    let recovered = await call(`${mock.url}/health`);
    for (const deadline = Date.now() + 10_000; recovered.status !== 200 && Date.now() < deadline; recovered = await call(`${mock.url}/health`)) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(recovered.status).toBe(200);
    // Told once each way on the console, however many requests met the outage.
    const storeLines = () => mock.process.stderr.split('\n').filter((line) => line.startsWith('The store '));
    for (const deadline = Date.now() + 2_000; storeLines().length < 2 && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(storeLines()).toEqual([
      expect.stringMatching(/^The store cannot be reached: requests are answered 503 until it is back \(The shared store \(Redis\) cannot be reached: .+\)$/),
      'The store is reachable again: requests are served',
    ]);
    stopped = true;
    // Whatever the load saw, it was an answer, each 200 (before and after), 401 (the restarted Redis is empty) or 503.
    expect(new Set(await load)).toSatisfy((seen: Set<number>) => [...seen].every((status) => [200, 401, 503].includes(status)));
    expect((await call(`${mock.url}/api/auth/register`, { json: { email: 'back@example.com' }, headers: from('10.9.3.3') })).status).toBe(200);
  }, 60_000);
});
