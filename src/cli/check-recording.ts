import { writeFile } from 'node:fs/promises';
import { readRecording, RecordingError } from '../../conformance/contract/read-recording.js';
import { recordingJson, recordingJunit, recordingLines } from '../../conformance/contract/recording-report.js';
import { runRecording, type RecordingOptions } from '../../conformance/contract/run-recording.js';
import { describeAftermath } from '../../conformance/target/target-state.js';
import type { StopSignals } from '../standalone/stop-signals.js';
import { catchInterrupts } from './interrupts.js';

export interface RecordingCommandOptions extends Omit<RecordingOptions, 'baseUrl' | 'stop'> {
  baseUrl?: string;
  dryRun?: boolean;
  json?: string;
  junit?: string;
}

/** --dry-run: the requests in the order the run would send them, placeholders and all; nothing is sent. */
async function dryRun(file: string): Promise<number> {
  let requests: Awaited<ReturnType<typeof readRecording>>;
  try {
    requests = await readRecording(file);
  } catch (error) {
    if (!(error instanceof RecordingError)) throw error;
    console.error(`game-service check: ${error.message}`);
    return 2;
  }
  console.log(`${file}: ${requests.length} requests, sent in this order as a player signed in for the run (nothing sent now):`);
  for (const [index, request] of requests.entries()) {
    const body = request.body === undefined ? '' : ` ${JSON.stringify(request.body)}`;
    console.log(`  ${index + 1}. ${request.method} ${request.path}${request.auth === true ? ' (with the token)' : ''}${body} → recorded ${request.status}`);
  }
  return 0;
}

/** `check --recording`: the recording's session sent again to --base-url, each answer compared by shape; the exit codes of check. */
export async function runRecordingCommand(options: RecordingCommandOptions, signals: StopSignals): Promise<number> {
  if (options.dryRun === true) return dryRun(options.recording);
  const { stop, release } = catchInterrupts('check', signals);
  const baseUrl = options.baseUrl ?? '';
  console.log(`Checking ${baseUrl} against the recording ${options.recording}.`);
  let result: Awaited<ReturnType<typeof runRecording>>;
  try {
    result = await runRecording({ ...options, baseUrl, stop });
  } finally {
    release();
  }
  if (options.json !== undefined) await writeFile(options.json, recordingJson(result));
  if (options.junit !== undefined) await writeFile(options.junit, recordingJunit(result));
  const aftermath = describeAftermath(result);
  if (aftermath !== undefined) console.log(`\n${aftermath}`);
  if (result.error !== undefined) {
    console.error(`game-service check: ${result.error}`);
    return result.exitCode;
  }
  for (const line of recordingLines(result)) console.log(line);
  return result.exitCode;
}
