import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startMock, useCli } from './support/cli.js';
import { call } from './support/http.js';

/** How `check` and `fuzz` report and stop: usage errors before anything starts, reports a CI reads, a target left as found. */

const cli = useCli();
const dir = mkdtempSync(join(tmpdir(), 'check-verdicts-cli-'));
const EMBEDDED = 'Using the embedded mock';

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('flag values that cannot work exit 2 before an embedded mock is started', () => {
  it.each([
    [['check', '--otp-source', 'log:/nonexistent/codes.log'], /--otp-source log:\/nonexistent\/codes\.log cannot be read: no such file/],
    [['check', '--otp-source', 'bogus'], /--otp-source "bogus" is not one of control, log:FILE, command:CMD, prompt/],
    [['check', '--only', '('], /--only "\(" is not a regular expression/],
    [['check', '--ship-payload', '{name:'], /--ship-payload "\{name:" is not JSON/],
    [['check', '--client-ip-header', 'Client IP'], /--client-ip-header "Client IP" is not a header name/],
    [['check', '--forwarded-for', '--client-ip-header', 'X-Real-IP'], /--forwarded-for and --client-ip-header X-Real-IP name two ways/],
    [['fuzz', '--replay', 'xyz'], /--replay "xyz" is not a value printed by a failed run/],
    [['fuzz', '--otp-source', 'log:/nonexistent/codes.log'], /cannot be read: no such file/],
  ])('%j', async (args, message) => {
    const result = await cli.run(args, {}, 15_000);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).not.toContain(EMBEDDED);
  });
});

describe('an OTP source that fails mid-run', () => {
  it("ends the run at once with exit 2 and the command's own words, not a failed check per sign-in", async () => {
    const { url } = await startMock(cli, ['--port', '0', '--no-control']);
    const calls = join(dir, 'otp-source-calls');
    const source = `command:echo $OTP_EMAIL >> '${calls}'; echo mailbox unreachable >&2; exit 3`;
    const result = await cli.run(['check', '--base-url', url, '--forwarded-for', '--otp-source', source], {}, 60_000);
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(2);
    expect(result.stderr).toMatch(/game-service check: --otp-source command:.* failed for conformance\+.*: mailbox unreachable/);
    expect(result.stdout).not.toMatch(/\d+ passed, \d+ failed/);
    // The run ended on its first failure: codes were asked only for the first sign-ins (made two at once, and on a
    // busy machine one more check's, started before the failure reached the runner's thread), not for a sign-in per
    // check (about twenty).
    const asked = readFileSync(calls, 'utf8').trim().split('\n');
    expect(asked.length, asked.join('\n')).toBeLessThanOrEqual(3);
  });
});

describe('the reports of a run', () => {
  it('a plain-text log without runner banner or colours, one count, the challengeToken hint, JUnit named after the suite with skip reasons, JSON with exchanges', async () => {
    const { url } = await startMock(cli, ['--port', '0', '--no-control', '--bot-check', 'tokens', '--bot-check-token', 'good-token']);
    const [junit, json] = [join(dir, 'report.xml'), join(dir, 'report.json')];
    // The first check of each: REG-OK's registration, SHIP-VERIFIED's unverified player.
    const only = 'REG-OK .*a new, valid address|SHIP-VERIFIED .*with an unverified player';
    const result = await cli.run(['check', '--base-url', url, '--only', only, '--junit', junit, '--json', json], {}, 60_000);
    expect(result.code, result.stdout).toBe(1);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the escape that starts a terminal colour is what this looks for
    expect(result.stdout).not.toMatch(/\x1b\[|vitest|RUN v\d/i);
    expect(result.stdout.match(/^\d+ passed, \d+ failed, \d+ skipped/gm)).toEqual(['0 passed, 1 failed, 1 skipped']);
    expect(result.stdout).toMatch(/^✗ REG-OK /m);
    expect(result.stdout).toContain('Hint: the target asks for a bot-check token: pass --challenge-token');

    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuites name="game-service check" tests="2" failures="1" errors="0" skipped="1"/);
    expect(xml).toMatch(/<skipped message="no token of an unverified player: pass --unverified-token[^"]*"\/>/);
    expect(xml).toMatch(/<failure message="expected status 200 for a new, valid address" type="REG-OK">/);

    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      suite: string;
      failed: number;
      checks: {
        rule: string;
        state: string;
        reason?: string;
        failures: { exchange?: { request: { method: string; url: string; body: string }; response: { status: number; body: string } } }[];
      }[];
    };
    expect(report.suite).toBe('game-service check');
    const failed = report.checks.find((check) => check.rule === 'REG-OK')!;
    expect(failed.state).toBe('failed');
    expect(failed.failures[0]!.exchange!.request).toMatchObject({ method: 'POST', url: `${url}/api/auth/register` });
    expect(failed.failures[0]!.exchange!.response.status).toBe(400);
    expect(failed.failures[0]!.exchange!.response.body).toContain('challengeToken');
    expect(report.checks.find((check) => check.rule === 'SHIP-VERIFIED')).toMatchObject({
      state: 'skipped',
      reason: expect.stringContaining('--unverified-token'),
    });
  });
});

it('RL-AUTH-IP against a mock that ignores X-Forwarded-For names the --trust-proxy it was started without', async () => {
  const { url } = await startMock(cli, ['--port', '0']);
  const result = await cli.run(['check', '--base-url', url, '--forwarded-for', '--only', 'two client addresses do not share an auth bucket'], {}, 60_000);
  expect(result.code, `${result.stdout.slice(-3_000)}\n${result.stderr}`).toBe(1);
  expect(result.stdout).toContain(
    'seems to share one bucket, so the target may ignore X-Forwarded-For (a game-service mock reads it only when started with --trust-proxy)',
  );
});

describe('a target is left as the run found it, or the run says what it leaves there', () => {
  /** A developer's state before a run: a signed-in player, a code pending for another address, and a clock frozen or running. */
  async function developerState(url: string, frozen: boolean) {
    await call(`${url}/__mock/clock`, { json: frozen ? { set: '2030-01-01T09:00:00Z', frozen: true } : { set: '2030-01-01T09:00:00Z' } });
    const player = await call(`${url}/__mock/players`, { json: { email: `developer-${frozen}@example.com` } });
    const token = (player.body as { authToken: string }).authToken;
    // Its bucket emptied: a window the run's clock moves end is not brought back (only those the run filled are emptied).
    const register = await call(`${url}/api/auth/register`, { json: { email: 'developer-code@example.com' }, headers: { 'x-forwarded-for': '198.51.100.77' } });
    expect(register.status, register.text).toBe(200);
    await call(`${url}/__mock/buckets`, { method: 'DELETE' });
    const [buckets, players, outbox] = await Promise.all(['buckets', 'players', 'outbox'].map((listing) => call(`${url}/__mock/${listing}?limit=1000`)));
    // The clock read last, and when: a running one is judged by the real time since.
    const askedAt = Date.now();
    const clock = (await call(`${url}/__mock/clock`)).body as { nowMs: number };
    return {
      token,
      clockMs: clock.nowMs,
      buckets: (buckets!.body as { buckets: unknown[] }).buckets,
      players: (players!.body as { players: unknown[] }).players,
      outbox: (outbox!.body as { messages: unknown[] }).messages,
      at: (askedAt + Date.now()) / 2,
    };
  }

  async function expectAsFound(url: string, before: Awaited<ReturnType<typeof developerState>>, frozen: boolean) {
    const buckets = await call(`${url}/__mock/buckets`);
    expect((buckets.body as { buckets: unknown[] }).buckets).toEqual(before.buckets);
    // The run's players and codes are gone; the developer's are as they were (points, ship, code state).
    expect((await call(`${url}/__mock/players?limit=1000`)).body).toMatchObject({ players: before.players, nextCursor: null });
    expect((await call(`${url}/__mock/outbox?limit=1000`)).body).toMatchObject({ messages: before.outbox, nextCursor: null });
    const askedAt = Date.now();
    const clock = (await call(`${url}/__mock/clock`)).body as { nowMs: number; frozen: boolean };
    expect(clock.frozen).toBe(frozen);
    const expected = before.clockMs + (frozen ? 0 : (askedAt + Date.now()) / 2 - before.at);
    expect(Math.abs(clock.nowMs - expected), `the clock reads ${new Date(clock.nowMs).toISOString()}`).toBeLessThan(2_000);
    const read = await call(`${url}/api/player`, { headers: { authorization: `Bearer ${before.token}` } });
    expect(read.status, read.text).toBe(200);
  }

  it.each([
    ['check', true],
    ['check', false],
    ['fuzz', true],
    ['fuzz', false],
  ] as const)('%s, clock frozen: %s', async (command, frozen) => {
    const { url } = await startMock(cli, ['--port', '0', '--trust-proxy']);
    const before = await developerState(url, frozen);
    const result = await cli.run([command, '--base-url', url, '--forwarded-for', ...(command === 'fuzz' ? ['--num-runs', '20'] : [])], {}, 60_000);
    expect(result.code, `${result.stdout.slice(-3_000)}\n${result.stderr}`).toBe(0);
    expect(result.stdout).toMatch(/Left the target as the run found it: the target's clock is back at 2030-01-01T09:0\d:\d\d\.\d{3}Z/);
    expect(result.stdout).toMatch(
      /the players, tokens and codes of the \d+ addresses the run registered \(conformance\+\*-\d+-\*@example\.com\) are removed \([1-9]\d* players, [1-9]\d* tokens, [1-9]\d* codes\)/,
    );
    expect(result.stdout).not.toContain('Left on the target');
    await expectAsFound(url, before, frozen);
  });

  it.each([
    ['check', ['--only', 'health']],
    ['fuzz', ['--num-runs', '3']],
  ])("%s takes its own requests out of the journal, and leaves the developer's; --keep-journal keeps them", async (command, args) => {
    const { url } = await startMock(cli, ['--port', '0']);
    await call(`${url}/health`, { headers: { 'x-developer': 'mine' } });
    const count = async (query = '') => ((await call(`${url}/__mock/journal/count${query}`)).body as { count: number }).count;
    const result = await cli.run([command, '--base-url', url, ...args], {}, 60_000);
    expect(result.code, `${result.stdout.slice(-3_000)}\n${result.stderr}`).toBe(0);
    expect(result.stdout).toMatch(/; the run's \d+ requests are out of the journal \(--keep-journal keeps them\)\./);
    expect(await count()).toBe(1);
    expect(await count('?header=x-developer:mine')).toBe(1);
    const kept = await cli.run([command, '--base-url', url, '--keep-journal', ...args], {}, 60_000);
    expect(kept.code, `${kept.stdout.slice(-3_000)}\n${kept.stderr}`).toBe(0);
    expect(kept.stdout).not.toContain('out of the journal');
    const [, seed] = kept.stdout.match(/seed (\d+)/i)!;
    expect(await count(`?header=x-game-service-run:${seed}`)).toBeGreaterThan(10);
  });

  it('a target without a control API: the run says what it leaves there', async () => {
    const { url } = await startMock(cli, ['--port', '0', '--trust-proxy', '--no-control']);
    const result = await cli.run(['check', '--base-url', url, '--forwarded-for', '--only', 'REG-OK .*a new, valid address'], {}, 30_000);
    expect(result.code, `${result.stdout.slice(-3_000)}\n${result.stderr}`).toBe(0);
    expect(result.stdout).toMatch(
      /Left on the target: whatever the target made for the 1 address the run registered \(conformance\+\*-\d+-\*@example\.com\) \(players and codes\): it has no control API to remove them\./,
    );
    expect(result.stdout).not.toContain('as the run found it');
  });
});
