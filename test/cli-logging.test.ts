import { describe, expect, it } from 'vitest';
import { startJsonMock, startMock, useCli } from './support/cli.js';
import { call } from './support/http.js';

const cli = useCli();
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('game-service mock --log-format json', () => {
  it('writes only JSON lines: startup with the URL, each code, each request with --verbose', async () => {
    const { process, url, listening } = await startJsonMock(cli, ['--port', '0', '--verbose']);
    expect(listening).toMatchObject({ level: 'info', event: 'listening', version: '0.1.0', control: { enabled: true, url: `${url}/__mock` } });

    expect((await call(`${url}/api/auth/register`, { json: { email: 'pilot@example.com' } })).status).toBe(200);
    const [otpLine = ''] = await process.waitForOutput(/^\{.*"event":"otp".*\}$/m);
    const otp = JSON.parse(otpLine) as Record<string, string>;
    expect(otp).toMatchObject({ email: 'pilot@example.com', code: expect.stringMatching(/^\d{6}$/) });
    expect(otp['expiresAt']).toMatch(ISO);
    const verified = await call(`${url}/api/auth/verify-email`, { json: { email: 'pilot@example.com', otp: otp['code'] } });
    expect(verified.status).toBe(200);

    await process.waitForOutput(/"path":"\/api\/auth\/verify-email"/);
    const lines = process.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]?.['event']).toBe('listening');
    expect(lines.map((line) => line['event']).sort()).toEqual(['listening', 'otp', 'request', 'request']);
    expect(lines.filter((line) => line['event'] === 'request')).toMatchObject([
      { method: 'POST', path: '/api/auth/register', status: 200, category: 'auth', ip: '127.0.0.1' },
      { method: 'POST', path: '/api/auth/verify-email', status: 200, category: 'auth', ip: '127.0.0.1' },
    ]);
    expect(process.stderr).toBe('');
  });
});

describe('game-service mock, text logs', () => {
  it('prints one line per request with --verbose, and none without', async () => {
    const verbose = await startMock(cli, ['--port', '0', '--verbose']);
    await call(`${verbose.url}/health`);
    await call(`${verbose.url}/api/player`);
    await verbose.process.waitForOutput(/^GET \/api\/player 401 read 127\.0\.0\.1$/m);
    expect(verbose.process.stdout).toMatch(/^GET \/health 200 public 127\.0\.0\.1$/m);

    const quiet = await startMock(cli, ['--port', '0']);
    await call(`${quiet.url}/health`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(quiet.process.stdout).not.toContain('GET /health');
  });

  it('reports a frozen clock in the banner with --freeze-clock, and a running one otherwise', async () => {
    const frozen = await startMock(cli, ['--port', '0', '--freeze-clock']);
    const [, at = ''] = frozen.process.stdout.match(/^ {2}clock: {8}frozen at (\S+)$/m) ?? [];
    expect(at).toMatch(ISO);
    expect(Math.abs(Date.parse(at) - Date.now())).toBeLessThan(10_000);
    const running = await startMock(cli, ['--port', '0']);
    expect(running.process.stdout).toContain('  clock:        running\n');
    expect(running.process.stdout).toContain('  world:        (none)\n');
  });
});
