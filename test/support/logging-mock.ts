import { spawn } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './cli.js';

export interface LoggingMock {
  url: string;
  /** The file the mock's console goes to: its codes, read as a deployment's log (--otp-source log:FILE). */
  log: string;
  stop(): void;
}

/** `game-service mock --port 0 ...args` with its console in `<dir>/mock.log`, as a deployment's would be. */
export async function startLoggingMock(dir: string, args: readonly string[]): Promise<LoggingMock> {
  const log = join(dir, 'mock.log');
  const mock = spawn(process.execPath, [join(ROOT, 'bin/game-service.js'), 'mock', '--port', '0', ...args], {
    stdio: ['ignore', openSync(log, 'w'), 'inherit'],
  });
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(readFileSync(log, 'utf8'));
    if (match !== null) return { url: match[1]!, log, stop: () => mock.kill('SIGKILL') };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  mock.kill('SIGKILL');
  throw new Error(`the mock did not start: ${readFileSync(log, 'utf8')}`);
}
