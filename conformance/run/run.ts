import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestCase } from 'vitest/node';
import { startVitest } from 'vitest/node';
import type { ConformanceConfig } from '../target/target-config.js';
import { describeAuthAccount, describeAuthPlan, isAuthPaced, planAuth, type AuthPlan } from '../fixtures/auth-plan.js';
import { describeAddressing } from '../target/identities.js';
import { checkOnlyPattern, selectChecks } from './only-pattern.js';
import type { CheckResult } from '../report/check-result.js';
import { ConsoleReporter } from '../report/console-reporter.js';
import { type HarOutput, markHar } from '../report/har.js';
import { RunCollector } from '../report/run-collector.js';
import { runCoverage, type RunCoverage } from '../report/run-coverage.js';
import { unlikeThisApi } from '../target/api-shape.js';
import { runHeader } from '../target/run-header.js';
import { jsonReport, junitReport, type RunReport } from '../report/run-report.js';
import { checkTargetOptions, resolveTargetConfig, type TargetOptions } from '../target/target-options.js';
import { preserveTargetState } from '../target/target-state.js';
import { type RunStop, STOP_EXIT_CODES, type StopSignalName } from '../common/run-stop.js';

export interface ConformanceOptions extends TargetOptions {
  junit?: string;
  json?: string;
  /** Also write every exchange the checks sent (control API requests marked) as HAR 1.2. */
  har?: HarOutput;
  seed?: number;
  /** Only one check file (`verify.check.ts`), or the checks whose title matches (a rule id such as RL-429, or any part of a title). */
  only?: string;
  /** Run every check even against a target that does not look like this API (by default only the health checks run then). */
  force?: boolean;
  /** Stops the run from outside (SIGINT, SIGTERM): it then restores the target and writes its reports, marked interrupted. */
  stop?: RunStop;
}

/** 0 every check passed, 1 one failed, 2 usage or connection error, 130/143 interrupted by SIGINT/SIGTERM. */
export type RunExitCode = 0 | 1 | 2 | (typeof STOP_EXIT_CODES)[StopSignalName];

export interface SkippedCheck {
  title: string;
  reason: string;
}

export interface ConformanceResult {
  exitCode: RunExitCode;
  seed: number;
  passed: number;
  failed: number;
  skipped: number;
  /** Every check that did not run, with why: never counted as passed. */
  skippedChecks: SkippedCheck[];
  observations: string[];
  /** Every check the run selected, as the reports show it. */
  checks: CheckResult[];
  /** Each sentence of the spec as the run's checks tested it (absent when nothing ran). */
  coverage?: RunCoverage;
  /** What was done to leave a target with a control API as the run found it. */
  restored?: string;
  /** What the run leaves on the target: the players and codes of its addresses, where it could not remove them. */
  left?: string;
  /** Why the run could not start, or stopped (exit code 2). */
  error?: string;
  /** The signal that stopped the run before its end, if one did. */
  interrupted?: StopSignalName;
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
      (plan !== undefined
        ? `; ${shorter}.`
        : oneAddress
          ? `: expect about 10 minutes from one address, paced by its auth budget (5 requests a minute); ${shorter}.`
          : ': expect about 2–3 minutes.'),
  );
}

/** Every option that can be judged before anything starts or is sent; throws TargetOptionError or OtpSourceError. */
function checkConformanceOptions(options: Omit<ConformanceOptions, 'baseUrl'>): void {
  checkTargetOptions(options);
  if (options.only !== undefined) checkOnlyPattern(options.only);
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

/** Every report asked for, whatever ended the run: the HAR its worker wrote is marked when the run ended early. */
async function writeReports(options: ConformanceOptions, report: RunReport, startedAt: number): Promise<void> {
  if (options.json !== undefined) await writeFile(options.json, jsonReport(report));
  if (options.junit !== undefined) await writeFile(options.junit, junitReport(report));
  const early = report.interrupted !== undefined ? `interrupted (${report.interrupted}): the run stopped before its end` : report.error;
  if (options.har !== undefined && early !== undefined) await markHar(options.har, early, startedAt);
}

/**
 * Where the run is stoppable, the signals are the caller's to handle: vitest's reporter would otherwise end the
 * process on the first Ctrl+C, before the target is put back and the reports written. Every SIGINT or SIGTERM
 * handler added from now on is taken off again before a signal can reach it (signals are dispatched between
 * turns of the event loop, never before a microtask); answers what ends that.
 */
function keepSignalsFromVitest(stop: RunStop | undefined): () => void {
  if (stop === undefined) return () => {};
  const onNewListener = (event: string | symbol, listener: (...args: unknown[]) => void) => {
    if (event === 'SIGINT' || event === 'SIGTERM') queueMicrotask(() => process.off(event, listener));
  };
  process.on('newListener', onNewListener);
  return () => process.off('newListener', onNewListener);
}

/** What runs against a target that does not look like this API: its health checks, which then fail (exit 1). */
const HEALTH_CHECKS_ONLY = { files: ['health'], titles: undefined } as const;

/** Runs every check against `options.baseUrl`: the function the CLI's `check` command calls. */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceResult> {
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const startedAt = Date.now();
  let config: ConformanceConfig;
  let restore: Awaited<ReturnType<typeof preserveTargetState>>;
  try {
    checkConformanceOptions(options);
    config = await resolveTargetConfig(options, seed);
    // Noted before the first request that counts in a bucket (the look at the API's shape below sends two).
    restore = await preserveTargetState(config.baseUrl, config.capabilities, config, options.stop, options.keepJournal);
  } catch (error) {
    // An unreachable target or an option that cannot work: nothing was checked, and the reports say why.
    if (!(error instanceof Error)) throw error;
    const target = options.baseUrl;
    await writeReports(options, { target, seed, exitCode: 2, durationMs: Date.now() - startedAt, checks: [], error: error.message }, startedAt);
    return { exitCode: 2, seed, passed: 0, failed: 0, skipped: 0, skippedChecks: [], observations: [], checks: [], error: error.message };
  }
  const stoppedEarly = options.stop?.reason;
  if (stoppedEarly !== undefined) {
    // Stopped while the target was being probed: nothing was sent that changes it.
    const exitCode = STOP_EXIT_CODES[stoppedEarly];
    await writeReports(
      options,
      { target: config.baseUrl, seed, exitCode, durationMs: Date.now() - startedAt, checks: [], interrupted: stoppedEarly },
      startedAt,
    );
    return { exitCode, seed, passed: 0, failed: 0, skipped: 0, skippedChecks: [], observations: [], checks: [], interrupted: stoppedEarly };
  }
  const unlike = options.force === true ? undefined : await unlikeThisApi(config.baseUrl, config.requestTimeout * 1000, runHeader(seed));
  if (unlike !== undefined) console.log(`${unlike}.\nRunning the health checks only; pass --force to run every check.`);
  const plan = unlike === undefined && isAuthPaced(config) ? planAuth(config) : undefined;
  if (unlike === undefined) announce(config, plan);
  const { files, titles } = unlike === undefined ? selectChecks(options.only) : HEALTH_CHECKS_ONLY;
  const selected = (testCase: TestCase) => titles === undefined || titles.test(testCase.fullName);
  const collector = new RunCollector(selected);
  const releaseSignals = keepSignalsFromVitest(options.stop);
  const { stop } = options;
  const interrupt = () => collector.interrupt(stop!.reason!);
  if (stop?.signal.aborted === true) interrupt();
  stop?.signal.addEventListener('abort', interrupt, { once: true });
  let vitest: Awaited<ReturnType<typeof startVitest>> | undefined;
  try {
    vitest = await startVitest(
      [],
      {
        run: true,
        watch: false,
        config: false,
        root: fileURLToPath(new URL('.', import.meta.url)),
        // One module for the whole run (it loads the selected check files): one Suite, so one scheduler sees every request.
        include: ['selected-checks.{ts,js}'],
        // In a thread, not a child process: a Ctrl+C on the terminal reaches this process only, which stops the run
        // and restores the target, instead of killing the checks' process in the middle of a request.
        pool: 'threads',
        provide: { conformance: config, checkFiles: [...files], har: options.har ?? null },
        reporters: [new ConsoleReporter(selected, () => collector.interrupted), collector],
        testTimeout: 30 * 60_000,
        hookTimeout: 5 * 60_000,
        ...(titles === undefined ? {} : { testNamePattern: titles }),
      },
      {
        // The checks may run from an installed package: vite's cache goes to the temp dir, never beside them.
        cacheDir: join(tmpdir(), 'game-service-conformance-vite'),
      },
    );
  } catch (error) {
    // The run itself broke: the target is put back all the same, and the reports say why.
    const message = error instanceof Error ? error.message : String(error);
    collector.usageError ??= `the run stopped: ${message}`;
  } finally {
    stop?.signal.removeEventListener('abort', interrupt);
    await vitest?.close();
    releaseSignals();
    collector.finish();
  }
  const { checks } = collector;
  const { restored, left } = await restore(collector.registeredEmails);
  if (plan !== undefined && checks.length > 0) console.log(`\n${describeAuthAccount(plan, collector.authRequests, Date.now() - startedAt)}`);
  const counts = summarize(checks);
  const { interrupted } = collector;
  const error =
    collector.usageError ??
    (checks.length > 0 || interrupted !== undefined
      ? undefined
      : options.only === undefined
        ? 'no checks were found'
        : `no check matches --only ${options.only}`);
  const exitCode: RunExitCode =
    interrupted !== undefined ? STOP_EXIT_CODES[interrupted] : error !== undefined ? 2 : counts.failed > 0 || collector.moduleFailed ? 1 : 0;
  const coverage = runCoverage(checks);
  await writeReports(
    options,
    {
      target: config.baseUrl,
      seed,
      exitCode,
      durationMs: Date.now() - startedAt,
      checks,
      coverage,
      ...(error === undefined ? {} : { error }),
      ...(interrupted === undefined ? {} : { interrupted }),
    },
    startedAt,
  );
  return {
    exitCode,
    seed,
    ...counts,
    checks,
    coverage,
    ...(restored === undefined ? {} : { restored }),
    ...(left === undefined ? {} : { left }),
    ...(error === undefined ? {} : { error }),
    ...(interrupted === undefined ? {} : { interrupted }),
  };
}
