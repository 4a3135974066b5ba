import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node';
import type { StopSignalName } from '../common/run-stop.js';
import { asInterrupted, checkResult, type CheckResult } from './check-result.js';

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
  /** The signal that stopped the run, if one did: the checks it cut short or kept from running are skipped, with why. */
  interrupted: StopSignalName | undefined;
  readonly #selected: (testCase: TestCase) => boolean;
  #vitest: Vitest | undefined;
  #cancelledInRun = false;
  #collected: TestModule | undefined;
  #ended = false;

  constructor(selected: (testCase: TestCase) => boolean) {
    this.#selected = selected;
  }

  onInit(vitest: Vitest): void {
    this.#vitest = vitest;
  }

  /** An interrupt before the checks began: vitest forgets a cancel given before its run starts, so it is given again. */
  onTestCaseReady(): void {
    if (this.interrupted === undefined || this.#cancelledInRun) return;
    this.#cancelledInRun = true;
    void this.#vitest?.cancelCurrentRun('keyboard-input');
  }

  /** Stops the run: no check starts, and the running one's signal aborts its requests and waits. */
  interrupt(signal: StopSignalName): void {
    this.interrupted ??= signal;
    void this.#vitest?.cancelCurrentRun('keyboard-input');
  }

  onTestCaseResult(testCase: TestCase): void {
    const usage = testCase.result().errors?.find((error) => USAGE_ERRORS.has(error.name ?? ''));
    if (usage === undefined || this.usageError !== undefined) return;
    this.usageError = usage.message;
    void this.#vitest?.cancelCurrentRun('test-failure');
  }

  onTestModuleCollected(testModule: TestModule): void {
    this.#collected = testModule;
  }

  /**
   * After the run: a run cancelled before its module's end reported no end (an interrupt may do that), so its
   * checks are read from the module as collected, those that never ran among them.
   */
  finish(): void {
    if (this.#collected !== undefined && !this.#ended) this.onTestModuleEnd(this.#collected);
  }

  /** At the module's end, so that checks a cancelled run never reached are listed too (skipped: did not run). */
  onTestModuleEnd(testModule: TestModule): void {
    this.#ended = true;
    for (const testCase of testModule.children.allTests()) {
      this.authRequests += testCase.meta().authRequests ?? 0;
      for (const email of testCase.meta().registeredEmails ?? []) this.registeredEmails.add(email);
      if (this.#selected(testCase)) this.checks.push(asInterrupted(checkResult(testCase), this.interrupted));
    }
    if (testModule.state() === 'failed' && this.interrupted === undefined) this.moduleFailed = true;
  }
}
