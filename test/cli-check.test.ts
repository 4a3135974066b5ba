import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, useCli } from './support/cli.js';

/** `game-service check` as testers call it: what it prints before the checks run, and what it refuses to start with. */

const cli = useCli();
let dir = '';
beforeAll(() => {
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
    // ENV-ERROR's property of malformed bodies is left to REG-MISSING's and VERIFY-MISSING's where one address paces the run.
    expect(result.stdout).not.toMatch(/^ +\d+ {2}ENV-ERROR/m);
    expect(result.stdout).toMatch(/^\d+ windows: expect about \d+ min \d+ s\.$/m);
    expect(result.stderr).toContain('game-service check: no check matches --only no-such-check');
  });
});

// The values refused before these (OTP source, --only, payload, client-IP header) are in check-verdicts-cli.test.ts.
describe('game-service check: a flag value that cannot work stops it before anything starts', () => {
  it.each([
    [
      'a report in a directory that is missing',
      ['--junit', '/no/such/dir/report.xml'],
      '--junit "/no/such/dir/report.xml" cannot be written: /no/such/dir is no directory',
    ],
    ['a JSON report that is a directory', ['--json', '.'], '--json "." cannot be written: it is a directory'],
    ['an email template without {id}', ['--email-template', 'tester@example.com'], '--email-template "tester@example.com" has no {id}'],
    ['source IPs that are no addresses', ['--source-ips', 'localhost'], '--source-ips "localhost": localhost is not an IP address'],
    ['no property run', ['--num-runs', '0'], '--num-runs "0" must be at least 1'],
  ])('%s', async (_name, args, message) => {
    const result = await cli.run(['check', ...args], {}, 60_000);
    expect(result.code).toBe(2);
    // The embedded mock announces itself on stdout when it starts.
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`game-service: ${message}`);
  });

  it('names the variable of a value from the environment', async () => {
    const result = await cli.run(['check'], { GAME_SERVICE_OTP_SOURCE: 'bogus' }, 60_000);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('game-service: GAME_SERVICE_OTP_SOURCE=bogus: --otp-source "bogus" is not one of');
  });
});
