import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createVitest } from 'vitest/node';
import { CHECK_FILES } from '../checks/check-files.js';
import type { ConformanceConfig } from '../target/target-config.js';
import { TARGET_DEFAULTS } from '../target/target-defaults.js';
import type { DeclaredCheck } from '../report/declared-check.js';

/** A run's configuration for declaring the checks only: nothing is sent, and no title depends on it. */
const NO_TARGET: ConformanceConfig = {
  baseUrl: 'http://127.0.0.1:9',
  seed: 0,
  numRuns: 1,
  capabilities: null,
  otpSource: null,
  gameOrigin: null,
  challengeToken: null,
  unverifiedToken: null,
  sourceIps: [],
  clientIpHeader: null,
  shipPayload: JSON.parse(TARGET_DEFAULTS.shipPayload),
  waitOtpExpiry: false,
  emailTemplate: TARGET_DEFAULTS.emailTemplate,
  maxWait: TARGET_DEFAULTS.maxWait,
  requestTimeout: TARGET_DEFAULTS.requestTimeout,
};

/** Every check of the suite in the run's order, as its module declares them (collected, not run). */
export async function collectChecks(): Promise<DeclaredCheck[]> {
  const vitest = await createVitest(
    'test',
    {
      watch: false,
      config: false,
      root: fileURLToPath(new URL('.', import.meta.url)),
      include: ['selected-checks.{ts,js}'],
      // In a thread, as a run's checks are: no process is started to declare them.
      pool: 'threads',
      provide: { conformance: NO_TARGET, checkFiles: [...CHECK_FILES] },
      reporters: [],
    },
    { cacheDir: join(tmpdir(), 'game-service-conformance-vite') },
  );
  try {
    // Not parsed statically: the titles are made when the check files declare them.
    const { testModules } = await vitest.collect([], { staticParse: false });
    const errors = testModules.flatMap((module) => module.errors());
    if (errors.length > 0) throw new Error(`the checks could not be declared: ${errors.map((error) => error.message).join('; ')}`);
    return testModules.flatMap((module) => [...module.children.allTests()].map((test) => ({ rule: test.name.split(' ')[0]!, title: test.name })));
  } finally {
    await vitest.close();
  }
}
