import type { TargetOptions } from '../../conformance/target/target-options.js';
import type { MockLogger } from './logger.js';

/** The embedded mock's game origin, so that the exemption rules are exercised against it too. */
const EMBEDDED_GAME_ORIGIN = 'http://conformance.game.test';

const silentLogger: MockLogger = {
  listening: () => {},
  otp: () => {},
  request: () => {},
  error: (error) => console.error('embedded mock:', error),
  store: () => {},
  stopping: () => {},
};

/**
 * Runs `task` against --base-url, or against an embedded mock on a free port when none is given. The
 * embedded mock trusts X-Forwarded-For, so that the client can stand for many clients.
 */
export async function againstTarget<Options extends Omit<TargetOptions, 'baseUrl'> & { baseUrl?: string }, Result>(
  options: Options,
  task: (options: Options & { baseUrl: string }) => Promise<Result>,
): Promise<Result> {
  if (options.baseUrl !== undefined) return task({ ...options, baseUrl: options.baseUrl });
  // Loaded only here: a run against --base-url never needs the standalone server and its stores.
  const { startMock } = await import('./mock.js');
  const mock = await startMock({ port: 0, host: '127.0.0.1', gameOrigins: [EMBEDDED_GAME_ORIGIN], trustProxy: true, logger: silentLogger });
  const clients = options.sourceIps === undefined && options.forwardedFor === undefined && options.clientIpHeader === undefined ? { forwardedFor: true } : {};
  try {
    console.log(`Using the embedded mock at ${mock.url} (pass --base-url to target another server)`);
    return await task({ ...options, ...clients, baseUrl: mock.url });
  } finally {
    await mock.close();
  }
}
