import { runFuzz, type FuzzOptions, type FuzzResult } from '../../conformance/fuzz/run-fuzz.js';
import { writeFile } from 'node:fs/promises';
import { fuzzReportJson } from '../../conformance/fuzz/fuzz-report-json.js';
import { counted, perSecond } from '../../conformance/common/counted.js';
import { describeAftermath } from '../../conformance/target/target-state.js';
import { againstTarget } from '../standalone/embedded-mock.js';
import { fuzzJunitReport } from '../../conformance/fuzz/fuzz-report-junit.js';
import { catchInterrupts } from './interrupts.js';
import type { StopSignals } from '../standalone/stop-signals.js';

export type FuzzCommandOptions = Omit<FuzzOptions, 'baseUrl'> & {
  baseUrl?: string;
  /** Also write the result, with the shrunk sequence's exchanges, as JSON to this file. */
  json?: string;
  /** Also write a JUnit report to this file: a testcase per property. */
  junit?: string;
};

/** The flags that shape the generated sequences: a replay needs them all, with --seed and --replay. */
function replayCommand(options: FuzzCommandOptions, result: FuzzResult, replay: string): string {
  const flags: string[] = [];
  const add = (flag: string, value: string | readonly string[] | number | boolean | undefined) => {
    if (value === undefined || value === false) return;
    flags.push(value === true ? flag : `${flag} ${shellQuote(Array.isArray(value) ? value.join(',') : String(value))}`);
  };
  add('--base-url', options.baseUrl);
  add('--otp-source', options.otpSource);
  add('--game-origin', options.gameOrigin);
  add('--challenge-token', options.challengeToken);
  add('--source-ips', options.sourceIps);
  add('--forwarded-for', options.forwardedFor);
  add('--client-ip-header', options.clientIpHeader);
  add('--ship-payload', options.shipPayload);
  add('--email-template', options.emailTemplate);
  add('--max-commands', options.maxCommands);
  return `game-service fuzz ${[...flags, `--seed ${result.seed}`, `--replay ${shellQuote(replay)}`].join(' ')}`;
}

function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
}

function printSummary(result: FuzzResult): void {
  console.log(`\nTarget's choices where the spec is silent (held to for the whole run):`);
  for (const choice of result.choices) console.log(`  - ${choice}`);
  const done = `${counted(result.runs, 'sequence')}, ${counted(result.commands, 'command')}`;
  const requests = `${counted(result.requests, 'checked request')}, ${result.limited} of them answered 429`;
  console.log(`\n${done} (${requests}) in ${(result.durationMs / 1000).toFixed(1)} s: ${perSecond(result.commands, result.durationMs, 'commands')}.`);
}

/** `game-service fuzz`, its flag values checked (fuzz-settings.ts): run, print the shrunk disagreement and how to replay it, and answer the exit code. */
export async function runFuzzCommand(options: FuzzCommandOptions, signals: StopSignals = process): Promise<number> {
  const { stop, release } = catchInterrupts('fuzz', signals);
  let result: FuzzResult;
  // The target the run was given; the embedded mock's own address is gone once the run ends.
  let target = options.baseUrl ?? 'the embedded mock';
  try {
    result = await againstTarget({ ...options, stop }, (resolved) => {
      target = resolved.baseUrl;
      return runFuzz(resolved);
    });
  } finally {
    release();
  }
  const aftermath = describeAftermath(result);
  if (aftermath !== undefined) console.log(aftermath);
  const replay = result.failure === undefined ? undefined : replayCommand(options, result, result.failure.replay);
  if (options.json !== undefined) await writeFile(options.json, fuzzReportJson(result));
  if (options.junit !== undefined) await writeFile(options.junit, fuzzJunitReport(result, target, replay));
  if (result.error !== undefined) {
    console.error(`game-service fuzz: ${result.error}`);
    return result.exitCode;
  }
  printSummary(result);
  if (result.failure !== undefined) {
    const { failure } = result;
    console.log(
      `\nThe target disagrees with the spec's rate limits. Shortest sequence found (${counted(failure.steps.length, 'step')}, after ${counted(failure.shrinks, 'shrink')}):\n`,
    );
    console.log(failure.report);
    console.log(`\nSeed ${result.seed}, path ${failure.path}. Replay exactly this sequence with:\n  ${replay}`);
  }
  if (result.stoppedBy !== undefined) {
    console.log(`Interrupted (${result.stoppedBy}) after ${counted(result.runs, 'sequence')} (seed ${result.seed}).`);
    return result.exitCode;
  }
  if (result.failure !== undefined) return 1;
  const stopped = result.interrupted ? ' (stopped by --max-duration)' : '';
  console.log(`No disagreement found${stopped} (seed ${result.seed}; rerun the same sequences with --seed ${result.seed}).`);
  return 0;
}
