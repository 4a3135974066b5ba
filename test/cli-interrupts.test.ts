import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, assertBuilt, startMock, useCli } from './support/cli.js';

/**
 * Ctrl+C (SIGINT) and SIGTERM during `check` and `fuzz`: the target is left as the run found it (clock, players,
 * codes, buckets), every report asked for is written and says the run was interrupted, and the exit code is the
 * signal's. A target that cannot be reached still gets its reports. One run of each command takes a real signal
 * as a child process; the others run in this process, their signals sent as the process would get them.
 */

const cli = useCli();
let dir = '';
beforeAll(() => {
  assertBuilt();
  dir = mkdtempSync(join(tmpdir(), 'game-service-interrupts-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, init);
  return (await response.json()) as T;
}

/** What a developer's mock holds that a run may change: its clock, players, codes and buckets. */
async function stateOf(url: string) {
  const clock = await json<{ nowMs: number; frozen: boolean }>(`${url}/__mock/clock`);
  const players = await json<{ players: { id: string; email: string }[] }>(`${url}/__mock/players`);
  const outbox = await json<{ messages: { email: string; code: string; state: string }[] }>(`${url}/__mock/outbox`);
  const buckets = await json<{ buckets: { category: string; key: string }[] }>(`${url}/__mock/buckets`);
  // Listed in no particular order.
  const sorted = buckets.buckets.toSorted((a, b) => `${a.category} ${a.key}`.localeCompare(`${b.category} ${b.key}`));
  return { clock: { nowMs: clock.nowMs, frozen: clock.frozen }, players: players.players, outbox: outbox.messages, buckets: sorted };
}

/**
 * A mock as a developer leaves it before a run: its clock frozen at a known time (so that "as before" is exact),
 * one player of their own who has read once, a code sent to another address and a request to /health.
 */
async function developersMock() {
  const { url } = await startMock(cli, ['--port', '0']);
  const post = (path: string, body: unknown) =>
    json<Record<string, unknown>>(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await post('/__mock/clock', { set: '2030-01-01T09:00:00.000Z', frozen: true });
  const { authToken } = (await post('/__mock/players', { email: 'me@example.com' })) as { authToken: string };
  const read = () => fetch(`${url}/api/player`, { headers: { authorization: `Bearer ${authToken}` } });
  expect((await read()).status).toBe(200);
  await post('/api/auth/register', { email: 'friend@example.com' });
  await fetch(`${url}/health`);
  return { url, read, before: await stateOf(url) };
}

/**
 * A proxy in front of `target` that holds the request setting the clock back (`{set: …}`: the checks only
 * advance, freeze or unfreeze it) until it is closed: the run putting the target back is then still at it when
 * the test sends its second signal. `settingClock` says that request has come.
 */
async function slowClockProxy(target: string) {
  const held: ServerResponse[] = [];
  let settingClock = false;
  const server = createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    if (incoming.method === 'POST' && incoming.url === '/__mock/clock' && 'set' in (JSON.parse(body.toString() || '{}') as object)) {
      settingClock = true;
      held.push(outgoing);
      return;
    }
    const upstream = request(new URL(incoming.url ?? '/', target), { method: incoming.method, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    upstream.on('error', () => outgoing.destroy());
    upstream.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get settingClock() {
      return settingClock;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const outgoing of held) outgoing.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The instant a wait announced as `until HH:MM:SS` (UTC, within the next hour or so) ends. */
function endOfWait(until: string): number {
  const today = Date.parse(`${new Date().toISOString().slice(0, 10)}T${until}Z`);
  return today < Date.now() - 12 * 3_600_000 ? today + 24 * 3_600_000 : today;
}

interface Reports {
  junit: string;
  json: string;
  har: string;
}

function reportFiles(name: string): Reports & { flags: string[] } {
  const files = { junit: join(dir, `${name}.xml`), json: join(dir, `${name}.json`), har: join(dir, `${name}.har`) };
  return { ...files, flags: ['--junit', files.junit, '--json', files.json, '--har', files.har] };
}

/** Sends `signal` once stdout shows `pattern`, and answers the exit with everything printed. */
async function interruptAt(run: CliRun, pattern: RegExp, signal: 'SIGINT' | 'SIGTERM') {
  await run.waitForOutput(pattern, 60_000);
  run.signal(signal);
  const exit = await run.waitForExit(60_000);
  return { ...exit, stdout: run.stdout, stderr: run.stderr };
}

function expectInterruptedCheckReports(files: Reports, signal: 'SIGINT' | 'SIGTERM', exitCode: number): void {
  const report = JSON.parse(readFileSync(files.json, 'utf8')) as { exitCode: number; interrupted: string; checks: { state: string; reason?: string }[] };
  expect(report.exitCode).toBe(exitCode);
  expect(report.interrupted).toBe(signal);
  const notRun = report.checks.filter((check) => check.reason === `not run: the run was interrupted (${signal})`);
  expect(notRun.length).toBeGreaterThan(0);
  const junit = readFileSync(files.junit, 'utf8');
  expect(junit).toContain(`<property name="interrupted" value="${signal}"/>`);
  expect(junit).toContain(`<skipped message="not run: the run was interrupted (${signal})"/>`);
  const har = JSON.parse(readFileSync(files.har, 'utf8')) as { log: { comment?: string; entries: unknown[] } };
  expect(har.log.comment).toBe(`interrupted (${signal}): the run stopped before its end`);
}

describe('game-service check, interrupted, against a mock with a control API', () => {
  it('on SIGINT in the middle of the checks: stops, puts the clock, players, codes and buckets back, writes every report, exits 130', async () => {
    const { url, read, before } = await developersMock();
    const files = reportFiles('check-sigint');
    const run = cli.start(['check', '--base-url', url, ...files.flags], {}, { process: true });
    const result = await interruptAt(run, /^✓ VERIFY-OK/m, 'SIGINT');
    expect(result.code, result.stdout + result.stderr).toBe(130);
    expect(result.stderr).toContain('game-service check: SIGINT: stopping; putting the target back as the run found it');
    expect(result.stdout).toMatch(/Left the target as the run found it: the target's clock is back at 2030-01-01T09:00:00\.000Z, frozen; /);
    expect(result.stdout).toMatch(/\nInterrupted \(SIGINT\): \d+ passed, 0 failed, \d+ skipped/);
    expect(await stateOf(url)).toEqual(before);
    expect((await read()).status, "the developer's own token works as before").toBe(200);
    expectInterruptedCheckReports(files, 'SIGINT', 130);
  });

  it('on a second SIGINT, exits at once, saying what it leaves on the target', async () => {
    const { url } = await developersMock();
    // The target's clock is slow to set back, so that the second SIGINT comes while the run still puts it back.
    const slow = await slowClockProxy(url);
    try {
      // A second signal ends the process itself.
      const run = cli.start(['check', '--base-url', slow.url], {}, { process: true });
      await run.waitForOutput(/^✓ VERIFY-OK/m, 60_000);
      run.signal('SIGINT');
      await expect.poll(() => slow.settingClock, { timeout: 30_000, interval: 20 }).toBe(true);
      run.signal('SIGINT');
      const exit = await run.waitForExit(60_000);
      expect(exit.code, run.stdout + run.stderr).toBe(130);
      expect(run.stderr).toContain(
        'game-service check: SIGINT again: exiting at once. Left on the target: the clock as the run moved it (it was at 2030-01-01T09:00:00.000Z, frozen), the players and codes of the addresses the run registered (conformance+*-',
      );
      expect(run.stdout).not.toContain('Left the target as the run found it');
    } finally {
      await slow.close();
    }
  });

  it('on SIGTERM before the first check: the same, exit 143', async () => {
    const { url, before } = await developersMock();
    const files = reportFiles('check-sigterm');
    const run = cli.start(['check', '--base-url', url, ...files.flags]);
    const result = await interruptAt(run, /^Target .*: control API with clock control/m, 'SIGTERM');
    expect(result.code, result.stdout + result.stderr).toBe(143);
    expect(result.stdout).toMatch(/\nInterrupted \(SIGTERM\): \d+ passed, 0 failed, \d+ skipped/);
    expect(await stateOf(url)).toEqual(before);
    expectInterruptedCheckReports(files, 'SIGTERM', 143);
  });
});

describe('game-service fuzz, interrupted, against a mock with a control API', () => {
  it('on SIGINT while it fuzzes: unfreezes nothing it did not freeze, removes its players, empties its buckets, writes its reports, exits 130', async () => {
    const { url, read, before } = await developersMock();
    const files = reportFiles('fuzz-sigint');
    const run = cli.start(['fuzz', '--base-url', url, '--num-runs', '100000', ...files.flags], {}, { process: true });
    await run.waitForOutput(/^Fuzzing /m, 60_000);
    // Some sequences in: players made, buckets filled, the clock moved on.
    await expect.poll(() => run.stderr, { timeout: 60_000, interval: 100 }).toMatch(/sequence \d+\/100000/);
    run.signal('SIGINT');
    const exit = await run.waitForExit(60_000);
    expect(exit.code, run.stdout + run.stderr).toBe(130);
    expect(run.stdout).toMatch(/Left the target as the run found it: the target's clock is back at 2030-01-01T09:00:00\.000Z, frozen; /);
    expect(run.stdout).toMatch(/Interrupted \(SIGINT\) after \d+ sequences? \(seed/);
    expect(await stateOf(url)).toEqual(before);
    expect((await read()).status).toBe(200);
    const report = JSON.parse(readFileSync(files.json, 'utf8')) as { exitCode: number; interrupted: boolean; stoppedBy: string };
    expect(report).toMatchObject({ exitCode: 130, interrupted: true, stoppedBy: 'SIGINT' });
    const junit = readFileSync(files.junit, 'utf8');
    expect(junit).toContain('<property name="interrupted" value="SIGINT"/>');
    expect(junit).toMatch(
      /<testcase classname="game-service fuzz.rate limits" name="RL-REMAINING [^"]*">\s*<skipped message="interrupted \(SIGINT\) after \d+ sequences?: not fuzzed to the end"\/>/,
    );
    const har = JSON.parse(readFileSync(files.har, 'utf8')) as { log: { comment?: string; entries: unknown[] } };
    expect(har.log.comment).toBe('interrupted (SIGINT): the run stopped before its end');
    expect(har.log.entries.length).toBeGreaterThan(0);
  });
});

describe('interrupted against a target in real time (no control API)', () => {
  it('check ends a window wait at once (before the wait would have), says what it leaves, writes its reports, exits 130', async () => {
    const { url } = await startMock(cli, ['--port', '0', '--no-control']);
    const files = reportFiles('check-real-time');
    const run = cli.start(['check', '--base-url', url, ...files.flags]);
    // One address: its auth budget of 5 a minute is soon spent, and the run waits for the next window.
    const waiting = /waiting \d+ s \(until (\d\d:\d\d:\d\d)\)/;
    await expect.poll(() => run.stderr, { timeout: 60_000, interval: 50 }).toMatch(waiting);
    const [, until = ''] = waiting.exec(run.stderr)!;
    run.signal('SIGINT');
    const exit = await run.waitForExit(90_000);
    expect(exit.code, run.stdout + run.stderr).toBe(130);
    expect(Date.now(), `exited after the wait that was to end at ${until}`).toBeLessThan(endOfWait(until));
    expect(run.stdout).toMatch(/\nInterrupted \(SIGINT\): /);
    expect(run.stdout).toMatch(
      /Left on the target: whatever the target made for the \d+ address(es)? the run registered \(conformance\+\*-\d+-\*@example\.com\)/,
    );
    expectInterruptedCheckReports(files, 'SIGINT', 130);
  });

  it('fuzz, waiting for the windows of requests sent before it, ends at once with its reports, exit 143', async () => {
    const { url } = await startMock(cli, ['--port', '0', '--no-control']);
    const files = reportFiles('fuzz-real-time');
    const run = cli.start(['fuzz', '--base-url', url, ...files.flags]);
    const result = await interruptAt(run, /^Real time \(no clock control\)/m, 'SIGTERM');
    expect(result.code, result.stdout + result.stderr).toBe(143);
    const report = JSON.parse(readFileSync(files.json, 'utf8')) as { exitCode: number; stoppedBy: string };
    expect(report).toMatchObject({ exitCode: 143, stoppedBy: 'SIGTERM' });
    expect(readFileSync(files.junit, 'utf8')).toContain('<property name="interrupted" value="SIGTERM"/>');
    const har = JSON.parse(readFileSync(files.har, 'utf8')) as { log: { comment?: string } };
    expect(har.log.comment).toBe('interrupted (SIGTERM): the run stopped before its end');
  });
});

describe('a target that cannot be reached still gets every report asked for', () => {
  it.each([['check'], ['fuzz']])('%s: a JUnit file with one failing testcase naming the cause, the JSON report and an empty HAR; exit 2', async (command) => {
    const files = reportFiles(`${command}-unreachable`);
    const result = await cli.run([command, '--base-url', 'http://127.0.0.1:1', ...files.flags], {}, 30_000);
    expect(result.code).toBe(2);
    const junit = readFileSync(files.junit, 'utf8');
    expect(junit).toMatch(
      /<testcase [^>]*name="the run reaches the target and completes"[^>]*>\s*<failure message="cannot reach http:\/\/127\.0\.0\.1:1\/: ECONNREFUSED"/,
    );
    expect(junit).toMatch(/<testsuites [^>]*failures="1"/);
    const report = JSON.parse(readFileSync(files.json, 'utf8')) as { exitCode: number; error: string };
    expect(report).toMatchObject({ exitCode: 2, error: 'cannot reach http://127.0.0.1:1/: ECONNREFUSED' });
    expect(existsSync(files.har)).toBe(true);
  });
});
