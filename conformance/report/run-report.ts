import type { CheckResult } from './check-result.js';
import type { StopSignalName } from '../run/run-stop.js';
import type { RunCoverage } from './run-coverage.js';

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

/** XML 1.0 text: the five escapes, and no control characters it forbids. */
export function xml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

function properties(run: RunReport): string {
  const interrupted = run.interrupted === undefined ? '' : `<property name="interrupted" value="${run.interrupted}"/>`;
  return `<property name="target" value="${xml(run.target)}"/><property name="seed" value="${run.seed}"/>${interrupted}`;
}

function testcase(check: CheckResult): string {
  const open = `    <testcase classname="${xml(`${SUITE_NAME}.${check.area}`)}" name="${xml(check.title)}" time="${seconds(check.durationMs)}"`;
  const inner = [
    ...check.failures.map(
      (failure) => `      <failure message="${xml(failure.message.split('\n')[0]!)}" type="${check.rule}">${xml(failure.message)}</failure>`,
    ),
    ...(check.state === 'skipped' ? [`      <skipped message="${xml(check.reason ?? 'did not run')}"/>`] : []),
    ...(check.observations.length > 0 ? [`      <system-out>${xml(check.observations.map((line) => `observation: ${line}`).join('\n'))}</system-out>`] : []),
  ];
  return inner.length === 0 ? `${open}/>` : `${open}>\n${inner.join('\n')}\n    </testcase>`;
}

/**
 * Why the run ended early, as a testcase of its own: a CI step that keeps the file shows the cause (a target
 * that cannot be reached, an option that cannot work) as a failure even when no check ran, and an interrupt
 * before any check was known as a skip.
 */
function runEnding(run: RunReport): CheckResult[] {
  const base = { rule: 'RUN', title: 'the run reaches the target and completes', area: 'run', durationMs: run.durationMs, observations: [] };
  if (run.error !== undefined) return [{ ...base, state: 'failed', failures: [{ message: run.error }] }];
  if (run.interrupted !== undefined && run.checks.length === 0)
    return [{ ...base, state: 'skipped', reason: `interrupted (${run.interrupted}) before any check ran`, failures: [] }];
  return [];
}

/** `--junit FILE`: one testsuite per area of the spec, named after the suite; a skipped check carries its reason. */
export function junitReport(run: RunReport): string {
  const areas = Map.groupBy([...run.checks, ...runEnding(run)], (check) => check.area);
  const suites = [...areas].map(([area, checks]) => {
    const time = checks.reduce((sum, check) => sum + check.durationMs, 0);
    return [
      `  <testsuite name="${xml(`${SUITE_NAME}: ${area}`)}" tests="${checks.length}" failures="${count(checks, 'failed')}" errors="0" skipped="${count(checks, 'skipped')}" time="${seconds(time)}">`,
      `    <properties>${properties(run)}</properties>`,
      ...checks.map(testcase),
      '  </testsuite>',
    ].join('\n');
  });
  const checks = [...run.checks, ...runEnding(run)];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${SUITE_NAME}" tests="${checks.length}" failures="${count(checks, 'failed')}" errors="0" skipped="${count(checks, 'skipped')}" time="${seconds(run.durationMs)}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
