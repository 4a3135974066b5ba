import type { TestCase } from 'vitest/node';
import type { ExchangeRecord } from '../common/exchange.js';
import { notRunReason, type StopSignalName } from '../common/run-stop.js';

/** One check as a report shows it: its rule, what it does, how it ended, and why. */
export interface CheckResult {
  /** The spec rule's id, the first word of the title. */
  rule: string;
  title: string;
  /** The area of the spec (the describe block). */
  area: string;
  state: 'passed' | 'failed' | 'skipped';
  durationMs: number;
  /** Why a skipped check did not run. */
  reason?: string;
  failures: { message: string; exchange?: ExchangeRecord }[];
  observations: string[];
}

interface FailureError {
  message: string;
  exchange?: ExchangeRecord;
  cause?: { message?: unknown; exchange?: ExchangeRecord };
}

/**
 * A check's own failure carries its exchange (CheckFailure); other errors carry a message only. A property's failure
 * names its counterexample and keeps what went wrong as its cause: both are shown.
 */
function failuresOf(testCase: TestCase): CheckResult['failures'] {
  return (testCase.result().errors ?? []).map((error: FailureError) => {
    const { cause } = error;
    const causeMessage = typeof cause?.message === 'string' && !error.message.includes(cause.message) ? cause.message : undefined;
    const exchange = error.exchange ?? cause?.exchange;
    return { message: causeMessage === undefined ? error.message : `${error.message}\n${causeMessage}`, ...(exchange === undefined ? {} : { exchange }) };
  });
}

export function checkResult(testCase: TestCase): CheckResult {
  const result = testCase.result();
  const state = result.state === 'passed' || result.state === 'failed' ? result.state : 'skipped';
  const reason = result.state === 'skipped' ? (result.note ?? 'did not run') : result.state === 'pending' ? 'did not run' : undefined;
  return {
    rule: testCase.name.split(' ')[0]!,
    title: testCase.name,
    area: testCase.parent.type === 'suite' ? testCase.parent.name : testCase.module.moduleId,
    state,
    durationMs: Math.round(testCase.diagnostic()?.duration ?? 0),
    ...(reason === undefined ? {} : { reason }),
    failures: state === 'failed' ? failuresOf(testCase) : [],
    observations: testCase
      .annotations()
      .filter((annotation) => annotation.type === 'observation')
      .map((annotation) => annotation.message),
  };
}

/** The part of a title after the quoted sentence: what the check does, for a line on a terminal. */
export function checkSummary(check: Pick<CheckResult, 'rule' | 'title'>): string {
  const quoteEnd = check.title.indexOf('» ');
  return `${check.rule} ${quoteEnd === -1 ? check.title.slice(check.rule.length + 1) : check.title.slice(quoteEnd + 2)}`;
}

/** After an interrupt, a check that did not pass or fail on its own is one the interrupt cut short or kept from running. */
export function asInterrupted(check: CheckResult, signal: StopSignalName | undefined): CheckResult {
  if (signal === undefined) return check;
  const cutShort = check.state === 'failed' && check.failures.some((failure) => /RunInterrupted|aborted|cancel/i.test(failure.message));
  const notRun = check.state === 'skipped' && (check.reason === 'did not run' || /aborted by the user/.test(check.reason ?? ''));
  if (!cutShort && !notRun) return check;
  return { ...check, state: 'skipped', reason: notRunReason(signal, cutShort), failures: [] };
}
