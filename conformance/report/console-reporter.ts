import { styleText } from 'node:util';
import type { Reporter, SerializedError, TestCase, TestModule } from 'vitest/node';
import type { StopSignalName } from '../common/run-stop.js';
import { asInterrupted, checkResult, checkSummary } from './check-result.js';

type Style = Parameters<typeof styleText>[0];

/** Colours only where stdout is a terminal that takes them (NO_COLOR and FORCE_COLOR are honoured). */
const paint = (style: Style, text: string) => styleText(style, text, { stream: process.stdout });

const MARKS = { passed: ['green', '✓'], failed: ['red', '✗'], skipped: ['yellow', '-'] } as const;

/** The suite's own lines on stdout, one per check as it ends: no test-runner banner, no colours in a log file. */
export class ConsoleReporter implements Reporter {
  readonly #selected: (testCase: TestCase) => boolean;
  readonly #interrupted: () => StopSignalName | undefined;

  constructor(selected: (testCase: TestCase) => boolean, interrupted: () => StopSignalName | undefined = () => undefined) {
    this.#selected = selected;
    this.#interrupted = interrupted;
  }

  onTestCaseResult(testCase: TestCase): void {
    if (!this.#selected(testCase)) return;
    const check = asInterrupted(checkResult(testCase), this.#interrupted());
    const [style, mark] = MARKS[check.state];
    const seconds = check.durationMs >= 1_000 ? paint('dim', ` (${(check.durationMs / 1000).toFixed(1)} s)`) : '';
    const skipped = check.reason === undefined ? '' : paint('dim', `: skipped, ${check.reason}`);
    console.log(`${paint(style, mark)} ${checkSummary(check)}${seconds}${skipped}`);
    for (const failure of check.failures) console.log(indent(`${check.title}\n${failure.message}`));
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    for (const module of testModules)
      for (const error of module.errors()) console.log(paint('red', `Error in ${module.moduleId}:`), `\n${indent(error.stack ?? error.message)}`);
    for (const error of unhandledErrors) console.log(paint('red', 'Error outside any check:'), `\n${indent(error.stack ?? error.message)}`);
  }
}

/** Each line of `text` four spaces in, under the line that introduces it. */
export const indent = (text: string): string => `    ${text.replaceAll('\n', '\n    ')}`;
