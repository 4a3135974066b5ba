import type { CheckResult } from './check-result.js';
import type { StopSignalName } from '../common/run-stop.js';
import type { RunCoverage } from './run-coverage.js';
import { type JunitTestcase, junitXml, RUN_TESTCASE } from './junit.js';

export const SUITE_NAME = 'game-service check';

/** A run as the JUnit and JSON reports describe it. */
export interface RunReport {
  target: string;
  seed: number;
  exitCode: number;
  durationMs: number;
  checks: readonly CheckResult[];
  coverage?: RunCoverage;
  /** Why the run stopped before its end (exit 2), if it did. */
  error?: string;
  /** The signal that stopped the run before its end, if one did. */
  interrupted?: StopSignalName;
}

const count = (checks: readonly CheckResult[], state: CheckResult['state']) => checks.filter((check) => check.state === state).length;

/** `--json FILE`: every check with its rule, state, skip reason, observations, and each failure's exchange; the spec's sentences as the run tested them. */
export function jsonReport(run: RunReport): string {
  const { checks } = run;
  return `${JSON.stringify(
    {
      suite: SUITE_NAME,
      target: run.target,
      seed: run.seed,
      exitCode: run.exitCode,
      passed: count(checks, 'passed'),
      failed: count(checks, 'failed'),
      skipped: count(checks, 'skipped'),
      durationMs: run.durationMs,
      interrupted: run.interrupted ?? null,
      ...(run.error === undefined ? {} : { error: run.error }),
      checks,
      ...(run.coverage === undefined ? {} : { coverage: run.coverage }),
    },
    null,
    2,
  )}\n`;
}

function testcase(check: CheckResult): JunitTestcase {
  return {
    name: check.title,
    durationMs: check.durationMs,
    failures: check.failures.map((failure) => ({ message: failure.message.split('\n')[0]!, type: check.rule, text: failure.message })),
    skipped: check.state === 'skipped' ? (check.reason ?? 'did not run') : undefined,
    output: check.observations.length > 0 ? check.observations.map((line) => `observation: ${line}`).join('\n') : undefined,
  };
}

/**
 * Why the run ended early, as a testcase of its own: a CI step that keeps the file shows the cause (a target
 * that cannot be reached, an option that cannot work) as a failure even when no check ran, and an interrupt
 * before any check was known as a skip.
 */
function runEnding(run: RunReport): CheckResult[] {
  const base = { ...RUN_TESTCASE, area: 'run', durationMs: run.durationMs, observations: [] };
  if (run.error !== undefined) return [{ ...base, state: 'failed', failures: [{ message: run.error }] }];
  if (run.interrupted !== undefined && run.checks.length === 0)
    return [{ ...base, state: 'skipped', reason: `interrupted (${run.interrupted}) before any check ran`, failures: [] }];
  return [];
}

/** `--junit FILE`: one testsuite per area of the spec, named after the suite; a skipped check carries its reason. */
export function junitReport(run: RunReport): string {
  const checks = [...run.checks, ...runEnding(run)];
  const suites = [...Map.groupBy(checks, (check) => check.area)].map(([area, inArea]) => {
    const time = inArea.reduce((sum, check) => sum + check.durationMs, 0);
    return { area, failures: count(inArea, 'failed'), durationMs: time, testcases: inArea.map(testcase) };
  });
  const properties = { target: run.target, seed: run.seed, interrupted: run.interrupted };
  return junitXml(SUITE_NAME, { failures: count(checks, 'failed'), durationMs: run.durationMs }, properties, suites);
}
