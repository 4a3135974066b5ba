import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, useCli } from './support/cli.js';

const cli = useCli();
/** The requirement: the whole suite against the embedded mock in under 20 seconds. */
const BUDGET_MS = 20_000;

beforeAll(() => assertBuilt());

describe('game-service check', () => {
  it('passes every check against the embedded mock, in under 20 s', async () => {
    const started = Date.now();
    const result = await cli.run(['check'], {}, 3 * BUDGET_MS);
    const elapsed = Date.now() - started;
    const output = `stdout: ${result.stdout.slice(-4_000)}\nstderr: ${result.stderr.slice(-2_000)}`;
    expect(result.code, output).toBe(0);
    const summary = /\n(\d+) passed, 0 failed, \d+ skipped \(seed \d+; replay with --seed \d+\)\n/.exec(result.stdout);
    expect(summary, output).not.toBeNull();
    expect(Number(summary![1])).toBeGreaterThan(0);
    expect(elapsed, `the suite took ${elapsed} ms`).toBeLessThan(BUDGET_MS);
  }, 4 * BUDGET_MS);

  it('exits 2 with the reason when nothing listens at --base-url', async () => {
    const result = await cli.run(['check', '--base-url', 'http://127.0.0.1:1'], {}, 15_000);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('game-service check: cannot reach http://127.0.0.1:1/: ECONNREFUSED');
    expect(result.stdout).not.toMatch(/passed, \d+ failed/);
  });

  it('exits 2 on an unknown flag, before checking anything', async () => {
    const result = await cli.run(['check', '--bogus'], {}, 5_000);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('game-service: Unknown argument: bogus');
  });
});
