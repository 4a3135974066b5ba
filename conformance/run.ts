import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestCase } from 'vitest/node';
import { startVitest } from 'vitest/node';
import type { ConformanceConfig } from './config.js';
import { resolveTargetConfig, type TargetOptions } from './target-options.js';

export interface ConformanceOptions extends TargetOptions {
  junit?: string;
  json?: string;
  seed?: number;
  /** Only the checks whose title matches (a rule id such as RL-429, or any part of a title). */
  only?: string;
}

export interface SkippedCheck {
  title: string;
  reason: string;
}

export interface ConformanceResult {
  exitCode: 0 | 1 | 2;
  seed: number;
  passed: number;
  failed: number;
  skipped: number;
  /** Every check that did not run, with why: never counted as passed. */
  skippedChecks: SkippedCheck[];
  observations: string[];
  /** Why the run could not start (exit code 2). */
  error?: string;
}

/** What kind of run this is, and how long a real-time one takes: its waits are announced as they come. */
function announce(config: ConformanceConfig): void {
  const clients = config.forwardedFor ? 'many clients (X-Forwarded-For)' : config.sourceIps.length > 0 ? `${config.sourceIps.length} source addresses` : 'one client';
  if (config.capabilities?.clockControl === true) {
    console.log(`Target ${config.baseUrl}: control API with clock control; checking from ${clients}. Seed ${config.seed}.`);
    return;
  }
  console.log(
    `Target ${config.baseUrl}: real time (no clock control); checking from ${clients}. Seed ${config.seed}.\n` +
      'Rate-limit windows are waited out for real (each wait is announced with the time it ends): expect about ' +
      (config.sourceIps.length > 1 || config.forwardedFor
        ? '1–2 minutes.'
        : '10 minutes from one address, paced by its auth budget (5 requests a minute); --source-ips or --forwarded-for shortens it to 1–2.'),
  );
}

function tally(testCases: readonly TestCase[]) {
  const states = testCases.map((testCase) => testCase.result().state);
  const observations = testCases.flatMap((testCase) =>
    testCase.annotations().filter((annotation) => annotation.type === 'observation').map((annotation) => `${testCase.name.split(' ')[0]}: ${annotation.message}`),
  );
  const skippedChecks = testCases.flatMap((testCase) => {
    const result = testCase.result();
    if (result.state !== 'skipped' && result.state !== 'pending') return [];
    return [{ title: testCase.name, reason: (result.state === 'skipped' ? result.note : undefined) ?? 'did not run' }];
  });
  return {
    passed: states.filter((state) => state === 'passed').length,
    failed: states.filter((state) => state === 'failed').length,
    skipped: skippedChecks.length,
    skippedChecks,
    observations,
  };
}

/** The checks a run selected: --only leaves the others out of every count. */
function selected(testCases: readonly TestCase[], only: string | undefined): TestCase[] {
  if (only === undefined) return [...testCases];
  const pattern = new RegExp(only);
  return testCases.filter((testCase) => pattern.test(testCase.fullName));
}

/** Runs every check against `options.baseUrl`: the function the CLI's `check` command calls. */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceResult> {
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  let config: ConformanceConfig;
  try {
    config = await resolveTargetConfig(options, seed);
  } catch (error) {
    // An unreachable target or a malformed option: nothing was checked.
    if (!(error instanceof Error)) throw error;
    return { exitCode: 2, seed, passed: 0, failed: 0, skipped: 0, skippedChecks: [], observations: [], error: error.message };
  }
  announce(config);
  const outputFile: Record<string, string> = {};
  if (options.junit !== undefined) outputFile['junit'] = options.junit;
  if (options.json !== undefined) outputFile['json'] = options.json;
  const vitest = await startVitest([], {
    run: true,
    watch: false,
    config: false,
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['checks/**/*.check.{ts,js}'],
    provide: { conformance: config },
    reporters: ['default', ...Object.keys(outputFile)],
    outputFile,
    // One worker, files in turn, modules shared: one scheduler sees every request of the run.
    fileParallelism: false,
    isolate: false,
    maxWorkers: 1,
    testTimeout: 30 * 60_000,
    hookTimeout: 5 * 60_000,
    ...(options.only === undefined ? {} : { testNamePattern: options.only }),
  }, {
    // The checks may run from an installed package: vite's cache goes to the temp dir, never beside them.
    cacheDir: join(tmpdir(), 'game-service-conformance-vite'),
  });
  try {
    const testCases = selected(
      vitest.state.getTestModules().flatMap((module) => [...module.children.allTests()]),
      options.only,
    );
    const counts = tally(testCases);
    if (testCases.length === 0) {
      return { exitCode: 2, seed, ...counts, error: options.only === undefined ? 'no checks were found' : `no check matches --only ${options.only}` };
    }
    const moduleFailed = vitest.state.getTestModules().some((module) => module.state() === 'failed');
    return { exitCode: counts.failed > 0 || moduleFailed ? 1 : 0, seed, ...counts };
  } finally {
    await vitest.close();
  }
}
