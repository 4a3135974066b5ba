import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, startMock, useCli } from './support/cli.js';

/** `game-service check` as testers call it: what it prints before the checks run. */

const cli = useCli();
let dir = '';
beforeAll(() => {
  assertBuilt();
  dir = mkdtempSync(join(tmpdir(), 'game-service-cli-check-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('game-service check: the auth plan of a real-time run', () => {
  it('counts one of a thing in the singular', async () => {
    const { url } = await startMock(cli, ['--port', '0', '--no-control']);
    const codes = join(dir, 'codes.log');
    writeFileSync(codes, '');
    // --only matches no check: the plan is printed, and nothing is sent.
    const result = await cli.run(['check', '--base-url', url, '--otp-source', `log:${codes}`, '--num-runs', '1', '--only', 'no-such-check']);
    expect(result.stdout).toContain('  REG-INVALID: 1 malformed address\n');
    expect(result.stdout).toContain('  ENV-ERROR: 1 malformed body\n');
    expect(result.stdout).toMatch(/^\d+ windows: expect about \d+ min \d+ s\.$/m);
    expect(result.stderr).toContain('game-service check: no check matches --only no-such-check');
  });
});
