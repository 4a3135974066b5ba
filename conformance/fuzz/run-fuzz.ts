import fc from 'fast-check';
import { notice } from '../target/pacing.js';
import { counted, perSecond } from '../common/counted.js';
import { type HarOutput, HarRecorder } from '../report/har.js';
import { checkTargetOptions, resolveTargetConfig, TargetOptionError, type TargetOptions } from '../target/target-options.js';
import { preserveTargetState } from '../target/target-state.js';
import { type RunStop, STOP_EXIT_CODES, type StopSignalName } from '../common/run-stop.js';
import { commandArbitrary } from './commands.js';
import { FUZZ_DEFAULTS } from './fuzz-defaults.js';
import { FuzzSession, type RunModel, type RunReal } from './fuzz-session.js';
import { formatSteps, parseReplayToken, replayPathOf, replayToken } from './report.js';
import { Disagreement, type Step } from './step.js';

export interface FuzzOptions extends TargetOptions {
  seed?: number;
  /** Command sequences to try (default 100; 5 in real time when each sequence must wait for the windows of the one before). */
  numRuns?: number;
  /** Most commands in one sequence. */
  maxCommands?: number;
  /** Stop trying new sequences (or shrinking) after this many seconds. */
  maxDuration?: number;
  /** PATH@COMMANDS from a failed run: replay exactly that sequence, once. */
  replay?: string;
  /** Also write every exchange of the run (control API requests marked), one page per sequence, as HAR 1.2. */
  har?: HarOutput;
  /** Stops the run from outside (SIGINT, SIGTERM): it then restores the target and reports what it has, marked interrupted. */
  stop?: RunStop;
}

export interface FuzzFailure {
  /** The shrunk sequence, numbered, with the disagreement under its step. */
  report: string;
  steps: readonly Step[];
  path: string;
  /** The --replay value that reruns exactly this sequence (with the same --seed and target flags). */
  replay: string;
  shrinks: number;
}

export interface FuzzResult {
  /** 0 no disagreement, 1 one, 2 usage or connection error, 130/143 stopped by SIGINT/SIGTERM. */
  exitCode: 0 | 1 | 2 | 130 | 143;
  seed: number;
  runs: number;
  commands: number;
  requests: number;
  /** Answers that were 429: the limits were reached, not only counted. */
  limited: number;
  durationMs: number;
  /** The choices the spec leaves open, as the target made them. */
  choices: string[];
  /** The run ended before its sequences were all tried: by --max-duration, or by a signal (stoppedBy). */
  interrupted: boolean;
  /** The signal that stopped the run, if one did. */
  stoppedBy?: StopSignalName;
  /** What was done to leave a target with a control API as the run found it. */
  restored?: string;
  /** What the run leaves on the target: the players and codes of its addresses, where it could not remove them. */
  left?: string;
  failure?: FuzzFailure;
  error?: string;
}

/** Progress lines: often enough to see a fast run move, sparse enough not to flood a real-time run's log. */
const PROGRESS_INTERVAL_MS = { clock: 2_000, realTime: 15_000 } as const;

/** How real-time sequences get empty buckets: fresh addresses and players, or a wait for the windows of the one before. */
function describeRealTime(session: FuzzSession, numRuns: number): string {
  if (!session.backToBack) {
    return (
      `Real time (no clock control): each sequence starts once the windows of the one before have ended, so expect about ${counted(numRuns + 1, 'minute')}, ` +
      'more if a disagreement is shrunk (each smaller sequence tried waits too); --max-duration bounds it. ' +
      `Sequences run back to back with more client addresses: --source-ips with more than ${session.identityCount} (or --client-ip-header).`
    );
  }
  const plan = session.addressPlan!;
  const addresses =
    plan.sequences === Number.POSITIVE_INFINITY
      ? 'a new client address for each sequence and each sign-in'
      : `${counted(plan.sequences, 'client address', 'client addresses')} for sequences${plan.signIns > 0 ? `, ${plan.signIns} signing players in ahead` : ''}`;
  return (
    'Real time (no clock control): sequences run back to back, each on client addresses and players whose rate-limit windows have ended ' +
    `(${addresses}); a sequence waits only when all of them are in use, and says so.`
  );
}

function announce(session: FuzzSession, numRuns: number, maxCommands: number): void {
  const { config } = session;
  const clients = counted(session.identityCount, 'client address', 'client addresses');
  const players = session.playerCount > 0 ? counted(session.playerCount, 'player') : 'no players (no OTP source: reads and gameplay are left out)';
  const origin = config.gameOrigin === null ? 'no game origin (exemptions are not fuzzed)' : `game origin ${config.gameOrigin}`;
  console.log(
    `Fuzzing ${config.baseUrl}: ${counted(numRuns, 'sequence')} of up to ${counted(maxCommands, 'command')} from ${clients}, ${players}, ${origin}. Seed ${config.seed}.`,
  );
  if (session.clock === undefined) console.log(describeRealTime(session, numRuns));
}

/** --replay as a failed run printed it, or undefined without one; a value that is none throws TargetOptionError. */
function replayOf(options: Omit<FuzzOptions, 'baseUrl'>): { path: string; replayPath: string | undefined } | undefined {
  if (options.replay === undefined) return undefined;
  try {
    return parseReplayToken(options.replay);
  } catch (error) {
    throw new TargetOptionError((error as Error).message);
  }
}

/** The shrunk disagreement as the report shows it, with the --replay value that reruns it. */
function failureOf(
  details: fc.RunDetails<[Iterable<fc.AsyncCommand<object, object>>]>,
  steps: Step[],
  replay: { path: string; replayPath: string | undefined } | undefined,
): FuzzFailure {
  const path = details.counterexamplePath ?? replay?.path ?? '0';
  const replayPath = replayPathOf(details.counterexample?.[0]) ?? replay?.replayPath;
  return { report: formatSteps(steps), steps, path, replay: replayToken(path, replayPath), shrinks: details.numShrinks };
}

/** Tries random command sequences against the target, judging every answer against the model, and shrinks a disagreement. */
export async function runFuzz(options: FuzzOptions): Promise<FuzzResult> {
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const startedAt = Date.now();
  let session: FuzzSession;
  let replay: { path: string; replayPath: string | undefined } | undefined;
  let restore: Awaited<ReturnType<typeof preserveTargetState>> | undefined;
  const har = options.har === undefined ? undefined : new HarRecorder();
  const { stop } = options;
  let sequences = 0;
  let started: FuzzSession | undefined;
  try {
    // Every option that can be judged before anything starts or is sent.
    checkTargetOptions(options);
    replay = replayOf(options);
    const config = await resolveTargetConfig(options, seed);
    restore = await preserveTargetState(config.baseUrl, config.capabilities, config, stop, options.keepJournal);
    started = new FuzzSession(config);
    started.target.har = har;
    started.target.stopSignal = stop?.signal;
    stop?.signal.throwIfAborted();
    await started.start();
    session = started;
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    // Whatever the start changed (a frozen clock, players signed in) is put back.
    await started?.close().catch(() => {});
    const { restored, left } =
      restore === undefined ? { restored: undefined, left: undefined } : await restore(new Set(started?.target.registeredEmails ?? []));
    const aftermath = { ...(restored === undefined ? {} : { restored }), ...(left === undefined ? {} : { left }) };
    const stoppedBy = stop?.reason;
    if (har !== undefined && options.har !== undefined)
      await har.write(options.har, stoppedBy !== undefined ? `interrupted (${stoppedBy}): the run stopped before its end` : error.message);
    const empty = { seed, runs: 0, commands: 0, requests: 0, limited: 0, durationMs: Date.now() - startedAt, choices: [], ...aftermath };
    if (stoppedBy !== undefined) return { ...empty, exitCode: STOP_EXIT_CODES[stoppedBy], interrupted: true, stoppedBy };
    return { ...empty, exitCode: 2, interrupted: false, error: error.message };
  }
  const onStop = () => session.stop();
  stop?.signal.addEventListener('abort', onStop, { once: true });
  const numRuns = options.numRuns ?? (session.clock === undefined && !session.backToBack ? FUZZ_DEFAULTS.numRunsRealTime : FUZZ_DEFAULTS.numRunsWithClock);
  const maxCommands = options.maxCommands ?? FUZZ_DEFAULTS.maxCommands;
  announce(session, numRuns, maxCommands);

  let lastFailure: { steps: Step[] } | undefined;
  let failures = 0;
  let completed = 0;
  let aborted: Error | undefined;
  const commands = fc.commands([commandArbitrary(session)], {
    maxCommands,
    size: 'max',
    ...(replay?.replayPath === undefined ? {} : { replayPath: replay.replayPath }),
  });
  /** The sequence being run: --max-duration interrupts fast-check, not the run, which must end before the session closes. */
  let inFlight: Promise<void> = Promise.resolve();
  const runSequence = async (sequence: Iterable<fc.AsyncCommand<RunModel, RunReal>>) => {
    if (aborted !== undefined || session.stopped) return;
    let setup: Awaited<ReturnType<FuzzSession['startRun']>>;
    har?.startPage(`sequence ${++sequences}`);
    try {
      setup = await session.startRun();
    } catch (error) {
      if (!session.stopped) aborted = error instanceof Error ? error : new Error(String(error));
      return;
    }
    try {
      await fc.asyncModelRun(() => setup, sequence);
      completed++;
    } catch (error) {
      if (session.stopped) return;
      if (!(error instanceof Disagreement)) {
        // The target or the OTP source failed: nothing to shrink, the run ends with exit 2.
        aborted = error instanceof Error ? error : new Error(String(error));
        return;
      }
      failures++;
      lastFailure = { steps: setup.real.steps };
      throw error;
    } finally {
      session.stats.commands += setup.real.steps.length;
    }
  };
  const property = fc.asyncProperty(commands, (sequence) => {
    const run = runSequence(sequence);
    inFlight = run.catch(() => {});
    return run;
  });

  const progress = setInterval(
    () => {
      const { commands: sent } = session.stats;
      const shortest = counted(lastFailure?.steps.length ?? 0, 'step');
      const phase =
        failures > 0 ? `shrinking: ${counted(failures, 'failing sequence')} so far, shortest ${shortest}` : `sequence ${session.stats.runs}/${numRuns}`;
      notice(`${phase} · ${counted(sent, 'command')} · ${perSecond(sent, Date.now() - startedAt, 'commands')}`);
    },
    session.clock === undefined ? PROGRESS_INTERVAL_MS.realTime : PROGRESS_INTERVAL_MS.clock,
  ).unref();
  let details: fc.RunDetails<[Iterable<fc.AsyncCommand<object, object>>]> | undefined;
  try {
    details = (await fc.check(property, {
      seed,
      numRuns: replay === undefined ? numRuns : 1,
      ...(replay === undefined ? {} : { path: replay.path, endOnFailure: true }),
      ...(options.maxDuration === undefined ? {} : { interruptAfterTimeLimit: options.maxDuration * 1000, markInterruptAsFailure: false }),
    })) as typeof details;
  } catch (error) {
    // The fuzzer itself broke: the target is put back all the same, and the run ends with exit 2.
    aborted ??= error instanceof Error ? error : new Error(String(error));
  } finally {
    clearInterval(progress);
    stop?.signal.removeEventListener('abort', onStop);
    session.stop();
    await inFlight;
    await session.close();
  }
  const { restored, left } = await restore(new Set(session.target.registeredEmails));
  const stoppedBy = stop?.reason;
  if (har !== undefined && options.har !== undefined) {
    const early = stoppedBy !== undefined ? `interrupted (${stoppedBy}): the run stopped before its end` : aborted?.message;
    await har.write(options.har, early);
  }

  const result: FuzzResult = {
    exitCode: 0,
    seed,
    runs: session.stats.runs,
    commands: session.stats.commands,
    requests: session.stats.requests,
    limited: session.stats.limited,
    durationMs: Date.now() - startedAt,
    choices: session.choices.describe(session.stats.limited),
    interrupted: stoppedBy !== undefined || details?.interrupted === true,
    ...(stoppedBy === undefined ? {} : { stoppedBy }),
    ...(restored === undefined ? {} : { restored }),
    ...(left === undefined ? {} : { left }),
  };
  if (stoppedBy !== undefined) {
    // What was found before the interrupt is kept (and shown); the exit code is the signal's.
    const found = details?.failed === true && lastFailure !== undefined ? { failure: failureOf(details, lastFailure.steps, replay) } : {};
    return { ...result, exitCode: STOP_EXIT_CODES[stoppedBy], ...found };
  }
  if (aborted !== undefined || details === undefined) return { ...result, exitCode: 2, error: aborted?.message ?? 'the fuzzer failed' };
  if (details.failed && lastFailure !== undefined) return { ...result, exitCode: 1, failure: failureOf(details, lastFailure.steps, replay) };
  if (details.interrupted && completed === 0) {
    const bound = `--max-duration ${options.maxDuration} s`;
    return {
      ...result,
      exitCode: 2,
      error: `${bound} ended the run before any sequence was complete: nothing was fuzzed (in real time a sequence first waits up to a minute); raise it`,
    };
  }
  if (details.failed && !details.interrupted)
    return { ...result, exitCode: 2, error: details.errorInstance instanceof Error ? details.errorInstance.message : 'the fuzzer failed' };
  return result;
}
