import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { useCli } from './support/cli.js';
import { startMutatingProxy, type MutatingProxy } from './support/mutating-proxy.js';
import { MUTATIONS } from './support/mutations.js';

/** `game-service fuzz` as testers call it: what it prints, its exit codes, and a replay from its own output. */

const cli = useCli();
const dir = mkdtempSync(join(tmpdir(), 'cli-fuzz-'));
let proxy: MutatingProxy | undefined;
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

/** The arguments of the replay line a failed run printed, without the leading `game-service`. */
function replayArguments(stdout: string): string[] {
  const line = /^\s+game-service (fuzz .*)$/m.exec(stdout)?.[1];
  expect(line, stdout).toBeDefined();
  return [...line!.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((match) => match[1]?.replaceAll("'\\''", "'") ?? match[2]!);
}

describe('game-service fuzz', () => {
  it('fuzzes the embedded mock without a disagreement, with its rate and the choices it learned', async () => {
    const result = await cli.run(['fuzz', '--num-runs', '30', '--seed', '7'], {}, 60_000);
    expect(result.stderr).not.toContain('Error');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Fuzzing http:\/\/127\.0\.0\.1:\d+: 30 sequences of up to 50 commands/);
    expect(result.stdout).toContain("X-RateLimit-Reset: Unix epoch seconds of the window's end");
    expect(result.stdout).toMatch(/30 sequences, \d+ commands \(\d+ checked requests, \d+ of them answered 429\) in [\d.]+ s: \d+(\.\d)? commands\/s\./);
    expect(result.stdout).toContain('No disagreement found (seed 7; rerun the same sequences with --seed 7).');
    // Learned in the sequences that met a 429, though each sequence starts afresh from what the run's start learned.
    expect(result.stdout).toContain('  - Retry-After: seconds\n');
  });

  it('counts one of a thing in the singular', async () => {
    // Seed 1 draws one command, which fills one bucket.
    const result = await cli.run(['fuzz', '--num-runs', '1', '--max-commands', '1', '--seed', '1'], {}, 60_000);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/: 1 sequence of up to 1 command from 3 client addresses, 2 players, /);
    expect(result.stdout).toContain("; the bucket the run filled is empty again; the run's 2 requests are out of the journal");
    expect(result.stdout).toContain('  - Retry-After: unit not known: no 429 seen\n');
    expect(result.stdout).toMatch(/^1 sequence, 1 command \(1 checked request, 0 of them answered 429\) in [\d.]+ s: [\d.]+ commands\/s\.$/m);
  });

  it('prints the shrunk sequence as numbered requests and responses, and a command line that replays it', async () => {
    proxy = await startMutatingProxy(MUTATIONS.find((mutation) => mutation.name === 'shared-read-bucket'));
    const report = join(dir, 'shared-read-bucket.json');
    // A seed whose run once learned the read windows as clock minutes (rounding slack let a window ending 2 s after a
    // minute pass for one) and reported RL-WINDOW on this target instead.
    const found = await cli.run(['fuzz', '--base-url', proxy.url, '--forwarded-for', '--json', report, '--seed', '1716519058'], {}, 60_000);
    expect(found.code, found.stderr).toBe(1);
    expect(found.stdout).toContain("The target disagrees with the spec's rate limits.");
    expect(found.stdout).toMatch(/ {2}1\. GET \/api\/player as player \d(?: \(token \d\))? from X-Forwarded-For [\d.]+\n {5}→ 200 {2}Limit 60, Remaining 59/);
    expect(found.stdout).toMatch(/ {2}2\. GET \/api\/player as player \d .*\n.*\n {5}✗ RL-REMAINING/);
    const json = JSON.parse(readFileSync(report, 'utf8')) as {
      exitCode: number;
      failure: {
        replay: string;
        steps: { request: { url: string; headers: Record<string, string> }; response: { status: number }; findings: { rule: string }[] }[];
      };
    };
    expect(json.exitCode).toBe(1);
    expect(json.failure.steps).toHaveLength(2);
    expect(json.failure.steps[1]!.request.url).toBe(`${proxy.url}/api/player`);
    expect(json.failure.steps[1]!.request.headers['authorization']).toMatch(/^Bearer .{9}…$/);
    expect(json.failure.steps[1]!.findings.map((finding) => finding.rule)).toContain('RL-REMAINING');

    const args = replayArguments(found.stdout);
    expect(args, 'a replay need not overwrite the report').not.toContain('--json');
    expect(args).toEqual(expect.arrayContaining(['--base-url', '--forwarded-for', '--seed', '--replay']));
    expect(args[args.indexOf('--base-url') + 1]).toContain(proxy.url);

    const replayed = await cli.run(args, {}, 60_000);
    expect(replayed.code, replayed.stderr).toBe(1);
    expect(replayed.stdout).toMatch(/Shortest sequence found \(2 steps, after 0 shrinks\)/);
  });

  it('answers 2 with one line when the target cannot be reached', async () => {
    const unreachable = await cli.run(['fuzz', '--base-url', 'http://127.0.0.1:1'], {}, 20_000);
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toContain('game-service fuzz: cannot reach http://127.0.0.1:1');
  });

  it.each([
    ['a --replay that is no printed value', ['--replay', 'not-a-path', '--seed', '1'], '--replay "not-a-path" is not a value printed by a failed run'],
    ['a --replay whose commands part is garbled', ['--replay', '0:1@!!', '--seed', '1'], '--replay "0:1@!!" is not a value printed by a failed run'],
    ['a --replay without the --seed of its run', ['--replay', '0:1@AB:A'], '--replay needs the --seed printed with it'],
    ['a --max-duration of 0', ['--max-duration', '0'], '--max-duration "0" must be at least 1'],
    ['no sequence to try', ['--num-runs', '0'], '--num-runs "0" must be at least 1'],
    ['no command in a sequence', ['--max-commands', '0'], '--max-commands "0" must be at least 1'],
    [
      'a JSON report in a directory that is missing',
      ['--json', '/no/such/dir/fuzz.json'],
      '--json "/no/such/dir/fuzz.json" cannot be written: /no/such/dir is no directory',
    ],
  ])('refuses %s before anything starts, exit 2', async (_name, args, message) => {
    const result = await cli.run(['fuzz', ...args], {}, 60_000);
    expect(result.code).toBe(2);
    // The embedded mock and the fuzzer announce themselves on stdout when they start.
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`game-service: ${message}`);
  });

  it('lists its run bounds and exit codes in --help', async () => {
    const result = await cli.run(['fuzz', '--help']);
    for (const flag of [
      '--base-url',
      '--otp-source',
      '--game-origin',
      '--source-ips',
      '--forwarded-for',
      '--num-runs',
      '--max-commands',
      '--max-duration',
      '--replay',
      '--seed',
      '--json',
      '--junit',
      '--har',
    ]) {
      expect(result.stdout).toContain(flag);
    }
    expect(result.stdout).toContain('Exit codes: 0 no disagreement, 1 a disagreement was found, 2 usage or connection error.');
  });
});
