import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunCoverage } from '../conformance/report/run-coverage.js';
import { UNTESTED_SENTENCES } from '../conformance/rules/untested.js';
import { startMock, useCli } from './support/cli.js';

/** `game-service check --coverage`: the spec's sentences as one run tested them. */

const cli = useCli();
const untested = Object.keys(UNTESTED_SENTENCES).length;
let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'game-service-cli-coverage-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('game-service check --coverage', () => {
  it('names the sentences this run tested, skipped and did not run, and those the suite leaves untested with why', async () => {
    const { url } = await startMock(cli, ['--port', '0', '--no-control']);
    const json = join(dir, 'report.json');
    const result = await cli.run(['check', '--base-url', url, '--only', 'ERR-404|TOKEN-EXPIRY', '--coverage', '--json', json], {}, 30_000);
    expect(result.code, result.stderr).toBe(0);
    const { stdout } = result;
    expect(stdout).toContain('\nSpec coverage of this run (the whole map: docs/spec-coverage.md):\n');
    expect(stdout).toContain('\n  ✓ ERR-STATUS-404 «404 | Not found»\n      ERR-404 1 passed\n');
    expect(stdout).toMatch(
      /\n {2}- STATE-TOKEN-EXPIRED «Verified with active token \| Time passes \| 7 days since token issue \| Token expired \| Token no longer accepted\.»\n {6}TOKEN-EXPIRY 2 skipped \(the target's clock cannot be moved/,
    );
    expect(stdout).toContain('\n  · SVC-BODY-JSON «Every response body is JSON.»\n      not run: no check of BODY-JSON was selected\n');
    expect(stdout).toContain(
      '\n  ○ LIM-ADMIN «Admin | 10 requests | per IP per minute | Every caller»\n      untested (needs what the spec does not show): no admin route is shown\n',
    );
    expect(stdout).toMatch(
      new RegExp(
        `\\n\\d+ sentences in the spec: \\d+ normative, tested here 1 passed, 0 failed, 5 skipped, \\d+ not run; ${untested} untested by the suite \\(`,
      ),
    );
    expect(stdout).toMatch(/\n1 passed, 0 failed, 2 skipped \(seed \d+/);

    const { coverage } = JSON.parse(readFileSync(json, 'utf8')) as { coverage: RunCoverage };
    expect(coverage.counts).toMatchObject({ passed: 1, failed: 0, skipped: 5, untested });
    expect(coverage.sentences.find((sentence) => sentence.id === 'ERR-STATUS-404')).toEqual({
      id: 'ERR-STATUS-404',
      section: 'Errors',
      words: '404 | Not found',
      verdict: 'passed',
      rules: [{ rule: 'ERR-404', passed: 1, failed: 0, skipped: 0, skipReasons: [] }],
    });
  });

  it('prints no map without the flag', async () => {
    const result = await cli.run(['check', '--only', 'HEALTH-NOAUTH'], {}, 30_000);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain('Spec coverage');
  });
});
