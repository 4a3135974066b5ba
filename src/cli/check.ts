import { runConformance, type ConformanceOptions, type ConformanceResult } from '../../conformance/run.js';
import type { MockLogger } from './logger.js';
import { startMock } from './mock.js';

/** The embedded mock's game origin, so that the exemption checks run against it too. */
const EMBEDDED_GAME_ORIGIN = 'http://conformance.game.test';

const silentLogger: MockLogger = {
  listening: () => {},
  otp: () => {},
  request: () => {},
  error: (error) => console.error('embedded mock:', error),
  stopping: () => {},
};

export type CheckOptions = Omit<ConformanceOptions, 'baseUrl'> & { baseUrl?: string };

/**
 * Runs the suite against --base-url, or against an embedded mock on a free port when none is given. The
 * embedded mock trusts X-Forwarded-For, so that the suite can stand for many clients and run every check.
 */
export async function runCheck(options: CheckOptions): Promise<ConformanceResult> {
  if (options.baseUrl !== undefined) return runConformance({ ...options, baseUrl: options.baseUrl });
  const mock = await startMock({ port: 0, host: '127.0.0.1', gameOrigins: [EMBEDDED_GAME_ORIGIN], trustProxy: true, logger: silentLogger });
  const clients = options.sourceIps === undefined && options.forwardedFor === undefined ? { forwardedFor: true } : {};
  try {
    console.log(`Checking the embedded mock at ${mock.url} (pass --base-url to check another server)`);
    return await runConformance({ ...options, ...clients, baseUrl: mock.url });
  } finally {
    await mock.close();
  }
}

/** `game-service check`: run, print the seed and observations, and answer the exit code. */
export async function runCheckCommand(options: CheckOptions): Promise<number> {
  const result = await runCheck(options);
  if (result.error !== undefined) {
    console.error(`game-service check: ${result.error}`);
    return result.exitCode;
  }
  if (result.skippedChecks.length > 0) {
    console.log('\nSkipped (not counted as passed):');
    for (const { title, reason } of result.skippedChecks) console.log(`  - ${title.split(' ')[0]}: ${reason}`);
  }
  if (result.observations.length > 0) {
    console.log('\nObservations (choices the spec leaves open; not failures):');
    for (const observation of result.observations) console.log(`  - ${observation}`);
  }
  console.log(`\n${result.passed} passed, ${result.failed} failed, ${result.skipped} skipped (seed ${result.seed}; replay with --seed ${result.seed})`);
  return result.exitCode;
}
