import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startMock, useCli } from './support/cli.js';

const cli = useCli();

describe('game-service check', () => {
  it('exits 2 with the reason when nothing listens at --base-url', async () => {
    const result = await cli.run(['check', '--base-url', 'http://127.0.0.1:1'], {}, 15_000);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('game-service check: cannot reach http://127.0.0.1:1/: ECONNREFUSED');
    expect(result.stdout).not.toMatch(/passed, \d+ failed/);
  });

  it('exits 2 on an unknown flag, before checking anything', async () => {
    const result = await cli.run(['check', '--bogus'], {}, 60_000);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('game-service: Unknown flag for check: --bogus');
  });

  it('lists each skipped check with its reason, and counts only the checks --only selects', async () => {
    const { url } = await startMock(cli, ['--port', '0', '--no-control']);
    const result = await cli.run(['check', '--base-url', url, '--only', 'SHIP-VERIFIED|TOKEN-EXPIRY'], {}, 30_000);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Skipped (not counted as passed):\n');
    expect(result.stdout).toMatch(/ {2}- SHIP-VERIFIED: no token of an unverified player: pass --unverified-token/);
    expect(result.stdout).toMatch(/ {2}- TOKEN-EXPIRY: the target's clock cannot be moved/);
    expect(result.stdout).toMatch(/ {2}- SHIP-VERIFIED: no OTP source: the target has no control API to read codes from/);
    expect(result.stdout).toMatch(/ {2}- TOKEN-EXPIRY, SHIP-VERIFIED \(2 checks\): no answer of the run was the rule's to judge/);
    expect(result.stdout).toMatch(/\n0 passed, 0 failed, 5 skipped \(seed/);
  });

  it('sums up a reason that skipped several checks once, while the JSON report keeps each skipped check', async () => {
    const { url } = await startMock(cli, ['--port', '0']);
    const dir = mkdtempSync(join(tmpdir(), 'game-service-skips-'));
    try {
      const json = join(dir, 'run.json');
      const result = await cli.run(['check', '--base-url', url, '--only', 'RL-EXEMPT', '--json', json], {}, 30_000);
      expect(result.code, result.stderr).toBe(0);
      const summary = result.stdout.slice(result.stdout.indexOf('Skipped (not counted as passed):'));
      expect(summary).toMatch(
        /^Skipped \(not counted as passed\):\n {2}- RL-EXEMPT \(4 checks\): no game origin: pass --game-origin\n {2}- RL-EXEMPT: no answer of the run was the rule's to judge\n\n/,
      );
      const report = JSON.parse(readFileSync(json, 'utf8')) as { checks: { state: string; reason?: string }[] };
      const skipped = report.checks.filter((check) => check.state === 'skipped');
      expect(skipped.map((check) => check.reason)).toEqual([
        ...Array(4).fill('no game origin: pass --game-origin'),
        "no answer of the run was the rule's to judge",
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('registers with --challenge-token on a target whose bot-check is on', async () => {
    const { url } = await startMock(cli, ['--port', '0', '--bot-check', 'tokens', '--bot-check-token', 'good-token']);
    const only = ['--only', 'REG-OK|VERIFY-OK'];
    const without = await cli.run(['check', '--base-url', url, ...only], {}, 30_000);
    expect(without.code).toBe(1);
    const withToken = await cli.run(['check', '--base-url', url, ...only, '--challenge-token', 'good-token'], {}, 30_000);
    expect(withToken.code, withToken.stdout.slice(-2_000)).toBe(0);
    // The one check skipped asks whether challengeToken is optional: with the bot-check on, it is not.
    expect(withToken.stdout).toMatch(/REG-OK where a registration without challengeToken is accepted .*: skipped, the run sends --challenge-token/);
    expect(withToken.stdout).toMatch(/\n[1-9]\d* passed, 0 failed, 1 skipped/);
  });
});
