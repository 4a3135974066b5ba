import { counted } from '../../conformance/common/counted.js';
import { describeRunCoverage } from '../../conformance/report/coverage-text.js';
import { describeAftermath } from '../../conformance/target/target-state.js';
import { runConformance, type ConformanceOptions, type ConformanceResult } from '../../conformance/run/run.js';
import { againstTarget } from '../standalone/embedded-mock.js';
import { catchInterrupts } from './interrupts.js';
import type { StopSignals } from '../standalone/stop-signals.js';

export type CheckOptions = Omit<ConformanceOptions, 'baseUrl'> & { baseUrl?: string };

/** What the command prints beyond the run's own lines. */
export interface CheckCommandOptions extends CheckOptions {
  /** After the run, the spec's sentences as it tested them. */
  coverage?: boolean;
  /** Instead of the spec's checks, the session of this recording sent again and compared (check-recording.ts). */
  recording?: string;
  stateCommand?: string;
  dryRun?: boolean;
}

/** Runs the suite against --base-url, or against an embedded mock (which trusts X-Forwarded-For) when none is given. */
export function runCheck(options: CheckOptions): Promise<ConformanceResult> {
  return againstTarget(options, runConformance);
}

/**
 * The summary of the skipped checks: each reason once, with the rules of the checks it skipped and how many
 * (`RL-EXEMPT (4 checks): no game origin: pass --game-origin`). The run's lines and reports keep every check.
 */
function skipLines(skipped: ConformanceResult['skippedChecks']): string[] {
  const byReason = Map.groupBy(skipped, ({ reason }) => reason);
  return [...byReason].map(([reason, checks]) => {
    const rules = [...new Set(checks.map(({ title }) => title.split(' ')[0]))].join(', ');
    return `  - ${rules}${checks.length > 1 ? ` (${counted(checks.length, 'check')})` : ''}: ${reason}`;
  });
}

/** `game-service check`, its flag values checked (check-settings.ts): run, print the seed and observations, and answer the exit code. */
export async function runCheckCommand({ coverage, recording, ...options }: CheckCommandOptions, signals: StopSignals = process): Promise<number> {
  if (recording !== undefined) return (await import('./check-recording.js')).runRecordingCommand({ ...options, recording }, signals);
  const { stop, release } = catchInterrupts('check', signals);
  let result: ConformanceResult;
  try {
    result = await runCheck({ ...options, stop });
  } finally {
    release();
  }
  const aftermath = describeAftermath(result);
  if (aftermath !== undefined) console.log(`\n${aftermath}`);
  if (result.error !== undefined) {
    console.error(`game-service check: ${result.error}`);
    return result.exitCode;
  }
  if (result.skippedChecks.length > 0) {
    console.log('\nSkipped (not counted as passed):');
    for (const line of skipLines(result.skippedChecks)) console.log(line);
  }
  if (result.observations.length > 0) {
    console.log('\nObservations (choices the spec leaves open; not failures):');
    for (const observation of result.observations) console.log(`  - ${observation}`);
  }
  if (coverage === true && result.coverage !== undefined) console.log(`\n${describeRunCoverage(result.coverage)}`);
  const interrupted = result.interrupted === undefined ? '' : `Interrupted (${result.interrupted}): `;
  console.log(
    `\n${interrupted}${result.passed} passed, ${result.failed} failed, ${result.skipped} skipped (seed ${result.seed}; replay with --seed ${result.seed})`,
  );
  return result.exitCode;
}
