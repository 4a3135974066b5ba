import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InProcessCli } from './cli.js';

export interface LoggingMock {
  url: string;
  /** The file the mock's console goes to: its codes, read as a deployment's log (--otp-source log:FILE). */
  log: string;
  stop(): Promise<void>;
}

/** How often what the mock printed is appended to its log file: a deployment's log is written as it goes, too. */
const FLUSH_MS = 10;

/** `game-service mock --port 0 ...args` (run in this process) with its console in `<dir>/mock.log`, as a deployment's would be. */
export async function startLoggingMock(dir: string, args: readonly string[]): Promise<LoggingMock> {
  const log = join(dir, 'mock.log');
  writeFileSync(log, '');
  const mock = new InProcessCli(['mock', '--port', '0', ...args]);
  let written = 0;
  const flush = () => {
    if (mock.stdout.length === written) return;
    appendFileSync(log, mock.stdout.slice(written));
    written = mock.stdout.length;
  };
  const flushing = setInterval(flush, FLUSH_MS);
  const stop = async () => {
    await mock.stopWhenListening();
    await mock.exited;
    clearInterval(flushing);
    flush();
  };
  try {
    const [, url = ''] = await mock.waitForOutput(/listening on (http:\/\/127\.0\.0\.1:\d+)/, 10_000);
    return { url, log, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
