import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startMock, useCli } from './support/cli.js';
import { startLoggingMock } from './support/logging-mock.js';

/**
 * `game-service fuzz` against a target without clock control: it says up front how it gets empty buckets,
 * waits once for the windows of requests sent before it, then runs its sequences back to back on fresh client
 * addresses and players signed in ahead, and stops at --max-duration.
 */

const cli = useCli();
const GAME_ORIGIN = 'http://game.test';
const dir = mkdtempSync(join(tmpdir(), 'fuzz-realtime-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('game-service fuzz in real time', () => {
  it('waits once for earlier windows, then runs sequences back to back on fresh addresses and players signed in through the log', async () => {
    const mock = await startLoggingMock(dir, ['--no-control', '--game-origin', GAME_ORIGIN]);
    const started = Date.now();
    const args = ['fuzz', '--base-url', mock.url, '--otp-source', `log:${mock.log}`, '--game-origin', GAME_ORIGIN, '--source-ips', '127.0.0.2-127.0.0.41'];
    const result = await cli.run([...args, '--num-runs', '8', '--max-commands', '30', '--seed', '3'], {}, 120_000).finally(mock.stop);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('from 3 client addresses, 2 players, game origin http://game.test');
    expect(result.stdout).toContain(
      'sequences run back to back, each on client addresses and players whose rate-limit windows have ended (30 client addresses for sequences, 10 signing players in ahead)',
    );
    const waits = result.stderr.split('\n').filter((line) => line.includes('waiting'));
    // The one wait: the addresses may have sent requests just before the run, whose windows the model cannot know.
    expect(waits, result.stderr).toHaveLength(1);
    expect(waits[0]).toMatch(
      /sequence 1: waiting \d+ s, until \d\d:\d\d:\d\d, for the rate-limit windows of requests sent from these addresses before this run/,
    );
    expect(Date.now() - started).toBeGreaterThan(55_000);
    expect(result.stdout).toMatch(/8 sequences, \d+ commands/);
  });

  it('stops at --max-duration instead of trying the remaining sequences', async () => {
    const started = Date.now();
    const result = await cli.run(['fuzz', '--num-runs', '1000000', '--max-duration', '2'], {}, 150_000);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('No disagreement found (stopped by --max-duration)');
    // A million sequences would take hours: any bound far below that, and far above load's stretch, tells them apart.
    expect(Date.now() - started).toBeLessThan(120_000);
  });

  it('answers 2 when --max-duration ends a real-time run before any sequence was complete', async () => {
    const mock = await startMock(cli, ['--port', '0', '--no-control']);
    const started = Date.now();
    const result = await cli.run(['fuzz', '--base-url', mock.url, '--max-duration', '3'], {}, 60_000);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--max-duration 3 s ended the run before any sequence was complete: nothing was fuzzed');
    // The first sequence alone waits a minute for earlier windows: ending well before it is ending at the bound.
    expect(Date.now() - started).toBeLessThan(50_000);
  });
});
