import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node';
import { checkResult, type CheckResult } from './check-result.js';

/** Usage errors: an option that cannot work, found during the run (exit 2, never a check's failure). */
const USAGE_ERRORS = new Set(['TargetOptionError', 'OtpSourceError']);

/**
 * The run's results as its reporter receives them: each selected check, the auth requests the checks sent and the
 * addresses they registered, and whether the run's module failed outside any check. It stops the whole run at once when the OTP source fails:
 * every later sign-in would fail the same way.
 */
export class RunCollector implements Reporter {
  readonly checks: CheckResult[] = [];
  authRequests = 0;
  /** Addresses the checks registered, which the run removes from the target at its end. */
  readonly registeredEmails = new Set<string>();
  moduleFailed = false;
  usageError: string | undefined;
  readonly #selected: (testCase: TestCase) => boolean;
  #vitest: Vitest | undefined;

  constructor(selected: (testCase: TestCase) => boolean) {
    this.#selected = selected;
  }

  onInit(vitest: Vitest): void {
    this.#vitest = vitest;
  }

  onTestCaseResult(testCase: TestCase): void {
    const usage = testCase.result().errors?.find((error) => USAGE_ERRORS.has(error.name ?? ''));
    if (usage === undefined || this.usageError !== undefined) return;
    this.usageError = usage.message;
    void this.#vitest?.cancelCurrentRun('test-failure');
  }

  /** At the module's end, so that checks a cancelled run never reached are listed too (skipped: did not run). */
  onTestModuleEnd(testModule: TestModule): void {
    for (const testCase of testModule.children.allTests()) {
      this.authRequests += testCase.meta().authRequests ?? 0;
      for (const email of testCase.meta().registeredEmails ?? []) this.registeredEmails.add(email);
      if (this.#selected(testCase)) this.checks.push(checkResult(testCase));
    }
    if (testModule.state() === 'failed') this.moduleFailed = true;
  }
}
