import { describe, expect, it } from 'vitest';
import type { CheckResult } from './check-result.js';
import { jsonReport, junitReport, type RunReport } from './run-report.js';

const run = (extra: Partial<RunReport>): RunReport => ({ target: 'http://127.0.0.1:8080/', seed: 7, exitCode: 0, durationMs: 1_000, checks: [], ...extra });

const check = (state: CheckResult['state'], reason?: string): CheckResult => ({
  rule: 'REG-OK',
  title: `REG-OK a check ${state}`,
  area: 'register',
  state,
  durationMs: 10,
  ...(reason === undefined ? {} : { reason }),
  failures: [],
  observations: [],
});

describe('the reports of a run that ended early', () => {
  it('a run that could not reach its target: one failing testcase naming the cause', () => {
    const junit = junitReport(run({ exitCode: 2, error: 'cannot reach http://127.0.0.1:8080/: ECONNREFUSED' }));
    expect(junit).toContain('<testsuites name="game-service check" tests="1" failures="1" errors="0" skipped="0"');
    expect(junit).toMatch(
      /<testcase classname="game-service check\.run" name="the run reaches the target and completes" time="1\.000">\n\s+<failure message="cannot reach http:\/\/127\.0\.0\.1:8080\/: ECONNREFUSED" type="RUN">/,
    );
  });

  it('an interrupted run: marked, the checks it did not run skipped with why', () => {
    const report = run({ exitCode: 130, interrupted: 'SIGINT', checks: [check('passed'), check('skipped', 'not run: the run was interrupted (SIGINT)')] });
    const junit = junitReport(report);
    expect(junit).toContain('<property name="interrupted" value="SIGINT"/>');
    expect(junit).toContain('<skipped message="not run: the run was interrupted (SIGINT)"/>');
    expect(junit).not.toContain('the run reaches the target');
    expect(JSON.parse(jsonReport(report))).toMatchObject({ exitCode: 130, interrupted: 'SIGINT', passed: 1, skipped: 1 });
  });

  it('interrupted before any check was known: a skipped testcase says so', () => {
    const junit = junitReport(run({ exitCode: 143, interrupted: 'SIGTERM' }));
    expect(junit).toContain('<property name="interrupted" value="SIGTERM"/>');
    expect(junit).toContain('<skipped message="interrupted (SIGTERM) before any check ran"/>');
  });

  it('a run that ended as it should says it was not interrupted', () => {
    expect(JSON.parse(jsonReport(run({ checks: [check('passed')] })))).toMatchObject({ interrupted: null });
    expect(junitReport(run({ checks: [check('passed')] }))).not.toContain('interrupted');
  });
});
