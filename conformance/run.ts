import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Reporter, TestCase, TestSpecification, Vitest } from 'vitest/node';
import { BaseSequencer, startVitest } from 'vitest/node';
import type { ConformanceConfig } from './config.js';
import { AUTH_REQUESTS_ANNOTATION, describeAuthAccount, describeAuthPlan, isAuthPaced, planAuth, type AuthPlan } from './auth-plan.js';
import { describeAddressing } from './identities.js';
import { checkOnlyPattern } from './only-pattern.js';
import { checkResult, type CheckResult } from './report/check-result.js';
import { ConsoleReporter } from './report/console-reporter.js';
import { jsonReport, junitReport, type RunReport } from './report/run-report.js';
import { checkTargetOptions, resolveTargetConfig, type TargetOptions } from './target-options.js';
import { preserveTargetState } from './target-state.js';

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
  /** Every check the run selected, as the reports show it. */
  checks: CheckResult[];
  /** What was done to leave a target with a control API as the run found it. */
  restored?: string;
  /** Why the run could not start, or stopped (exit code 2). */
  error?: string;
}

/** What kind of run this is, and how long a real-time one takes (its auth plan, where that paces it): waits are announced as they come. */
function announce(config: ConformanceConfig, plan: AuthPlan | undefined): void {
  const clients = describeAddressing(config.sourceIps, config.clientIpHeader);
  if (config.capabilities?.clockControl === true) {
    console.log(`Target ${config.baseUrl}: control API with clock control; ${clients}. Seed ${config.seed}.`);
    return;
  }
  console.log(`Target ${config.baseUrl}: real time (no clock control); ${clients}. Seed ${config.seed}.`);
  const oneAddress = config.sourceIps.length <= 1 && config.clientIpHeader === null;
  const shorter = '--source-ips or --client-ip-header shortens the run to 2–3 minutes';
  if (plan !== undefined) console.log(describeAuthPlan(plan));
  console.log(
    'Rate-limit windows are waited out for real (each wait is announced with the time it ends)' +
      (plan !== undefined ? `; ${shorter}.` : oneAddress ? `: expect about 10 minutes from one address, paced by its auth budget (5 requests a minute); ${shorter}.` : ': expect about 2–3 minutes.'),
  );
}

/** Usage errors: an option that cannot work, found before or during the run (exit 2, never a check's failure). */
const USAGE_ERRORS = new Set(['TargetOptionError', 'OtpSourceError']);

/** Every option that can be judged before anything starts or is sent; throws TargetOptionError or OtpSourceError. */
function checkConformanceOptions(options: Omit<ConformanceOptions, 'baseUrl'>): void {
  checkTargetOptions(options);
  if (options.only !== undefined) checkOnlyPattern(options.only);
}

/**
 * Check files in one order, whatever earlier runs took. The traffic invariants judge every response of the run,
 * so their file comes last. Where one address's auth budget paces the run: the wait for the read bucket
 * rate-limits-window spent passes while verify waits for auth windows, before rate-limits-window-reset watches it;
 * the files that send many unauthenticated requests (bearer first, envelopes, routing) stand apart, between those
 * that wait for auth windows, so that no minute holds more than the public bucket's 60; AP-HEADERS makes the shared second
 * player's first ship before RL-429 spends its gameplay bucket; and the public bucket is spent last, when nothing
 * else needs it.
 */
const FILE_ORDER = [
  'health', 'bearer', 'action-points', 'register', 'rate-limits-window', 'envelopes', 'verify', 'rate-limits-window-reset', 'routing', 'rate-limits-scope', 'ship',
  'rate-limits-headers', 'rate-limits-exempt', 'rate-limits-spent', 'traffic',
];

class PlannedOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // A file not in the list runs just before the traffic invariants.
    const rank = (file: TestSpecification) => {
      const index = FILE_ORDER.indexOf(/([\w-]+)\.check\.[jt]s$/.exec(file.moduleId)?.[1] ?? '');
      return index === -1 ? FILE_ORDER.length - 1.5 : index;
    };
    return [...files].sort((a, b) => rank(a) - rank(b));
  }
}

/** Stops the whole run at once when the OTP source fails: every later sign-in would fail the same way. */
class UsageErrorWatch implements Reporter {
  error: string | undefined;
  #vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.#vitest = vitest;
  }

  onTestCaseResult(testCase: TestCase): void {
    const usage = testCase.result().errors?.find((error) => USAGE_ERRORS.has(error.name ?? ''));
    if (usage === undefined || this.error !== undefined) return;
    this.error = usage.message;
    void this.#vitest?.cancelCurrentRun('test-failure');
  }
}

function summarize(checks: readonly CheckResult[]) {
  return {
    passed: checks.filter((check) => check.state === 'passed').length,
    failed: checks.filter((check) => check.state === 'failed').length,
    skipped: checks.filter((check) => check.state === 'skipped').length,
    skippedChecks: checks.flatMap((check) => (check.state === 'skipped' ? [{ title: check.title, reason: check.reason ?? 'did not run' }] : [])),
    observations: checks.flatMap((check) => check.observations.map((observation) => `${check.rule}: ${observation}`)),
  };
}

async function writeReports(options: ConformanceOptions, report: RunReport): Promise<void> {
  if (options.json !== undefined) await writeFile(options.json, jsonReport(report));
  if (options.junit !== undefined) await writeFile(options.junit, junitReport(report));
}

/** Runs every check against `options.baseUrl`: the function the CLI's `check` command calls. */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceResult> {
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const startedAt = Date.now();
  let config: ConformanceConfig;
  try {
    checkConformanceOptions(options);
    config = await resolveTargetConfig(options, seed);
  } catch (error) {
    // An unreachable target or an option that cannot work: nothing was checked.
    if (!(error instanceof Error)) throw error;
    return { exitCode: 2, seed, passed: 0, failed: 0, skipped: 0, skippedChecks: [], observations: [], checks: [], error: error.message };
  }
  const plan = isAuthPaced(config) ? planAuth(config) : undefined;
  announce(config, plan);
  const restore = await preserveTargetState(config.baseUrl, config.capabilities);
  const only = options.only === undefined ? undefined : new RegExp(options.only);
  const selected = (testCase: TestCase) => only === undefined || only.test(testCase.fullName);
  const usageWatch = new UsageErrorWatch();
  const vitest = await startVitest(
    [],
    {
      run: true,
      watch: false,
      config: false,
      root: fileURLToPath(new URL('.', import.meta.url)),
      include: ['checks/**/*.check.{ts,js}'],
      provide: { conformance: config },
      reporters: [new ConsoleReporter(selected), usageWatch],
      sequence: { sequencer: PlannedOrder },
      // One worker, files in turn, modules shared: one scheduler sees every request of the run.
      fileParallelism: false,
      isolate: false,
      maxWorkers: 1,
      testTimeout: 30 * 60_000,
      hookTimeout: 5 * 60_000,
      ...(options.only === undefined ? {} : { testNamePattern: options.only }),
    },
    {
      // The checks may run from an installed package: vite's cache goes to the temp dir, never beside them.
      cacheDir: join(tmpdir(), 'game-service-conformance-vite'),
    },
  );
  try {
    const checks = vitest.state
      .getTestModules()
      .flatMap((module) => [...module.children.allTests()])
      .filter(selected)
      .map(checkResult);
    const restored = await restore();
    const sent = vitest.state.getTestModules().flatMap((module) => [...module.children.allTests()]).flatMap((test) => test.annotations()).find((annotation) => annotation.type === AUTH_REQUESTS_ANNOTATION);
    if (plan !== undefined && sent !== undefined) console.log(`\n${describeAuthAccount(plan, Number(sent.message), Date.now() - startedAt)}`);
    const counts = summarize(checks);
    const moduleFailed = vitest.state.getTestModules().some((module) => module.state() === 'failed');
    const error = usageWatch.error ?? (checks.length > 0 ? undefined : options.only === undefined ? 'no checks were found' : `no check matches --only ${options.only}`);
    const exitCode = error !== undefined ? 2 : counts.failed > 0 || moduleFailed ? 1 : 0;
    await writeReports(options, { target: config.baseUrl, seed, exitCode, durationMs: Date.now() - startedAt, checks, ...(error === undefined ? {} : { error }) });
    return { exitCode, seed, ...counts, checks, ...(restored === '' ? {} : { restored }), ...(error === undefined ? {} : { error }) };
  } finally {
    await vitest.close();
  }
}
