import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { StopSignal } from '../../src/standalone/stop-signals.js';
import { withCapturedOutput } from './captured-output.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The project's Node 24, not the system one. */
const NODE = `${ROOT}node_modules/.bin/node`;
const BIN = `${ROOT}bin/game-service.js`;

/** The CLI runs from dist/: fail with the remedy rather than with a module-not-found trace. */
export function assertBuilt(): void {
  if (!existsSync(`${ROOT}dist/src/cli/main.js`)) {
    throw new Error('dist/src/cli/main.js is missing: run `npm run build` first (`npm test` builds before running vitest)');
  }
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * The least time a wait for a child gives it: the waits only end a hang, and a machine loaded by other work (two
 * test runs at once on two cores) can take many times longer than a quiet one to start a process or finish a run.
 */
const HANG_BOUND_MS = 60_000;
/**
 * What a whole `check` or `fuzz` run is given before it counts as hung: a run of 4 s alone took over 60 s with two
 * test suites at once on two cores.
 */
export const RUN_HANG_BOUND_MS = 5 * 60_000;

/** What a test sends a running command: the signals a user sends, and SIGKILL, which only a real process can take. */
export type CliSignal = StopSignal | 'SIGKILL';

/** A running `game-service` command, a child process or a run in this process, with its output collected as it arrives. */
export interface CliRun {
  stdout: string;
  stderr: string;
  readonly exited: Promise<Exit>;
  waitForOutput(pattern: RegExp, timeout?: number): Promise<RegExpMatchArray>;
  waitForExit(timeout?: number): Promise<Exit>;
  signal(signal: CliSignal): void;
}

/** Resolves with the first match of `pattern` in `run.stdout`; rejects on exit or after `timeoutMs`. */
async function outputMatch(run: CliRun, pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void run.exited.then(() => (exited = true));
  for (;;) {
    const match = run.stdout.match(pattern);
    if (match !== null) return match;
    if (exited || Date.now() > deadline) {
      const why = exited ? 'the command exited' : `${timeoutMs} ms passed`;
      throw new Error(`${why} before stdout matched ${pattern}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The exit, or a rejection naming what was printed if it does not come within `timeoutMs`. */
function exitWithin(run: CliRun, timeoutMs: number): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`no exit within ${timeoutMs} ms\nstdout: ${run.stdout}\nstderr: ${run.stderr}`));
    }, timeoutMs);
    void run.exited.then((exit) => {
      clearTimeout(timer);
      resolve(exit);
    });
  });
}

/** The least a wait gives a command: a whole run for check and fuzz, else the start of a process. */
const hangBoundOf = (args: readonly string[]) => (args[0] === 'check' || args[0] === 'fuzz' ? RUN_HANG_BOUND_MS : HANG_BOUND_MS);

/**
 * `game-service` run in this process: `main`, the function the bin calls, with the environment a child would
 * get, an emitter standing in for the process's signals, and its output kept apart from other runs'. A test that
 * detaches, kills with SIGKILL or needs the process's own exit runs a child process instead (`CliProcess`).
 */
export class InProcessCli implements CliRun {
  stdout = '';
  stderr = '';
  readonly exited: Promise<Exit>;
  readonly #signals = new EventEmitter();
  readonly #hangBoundMs: number;

  constructor(args: readonly string[], env: Record<string, string> = {}) {
    this.#hangBoundMs = hangBoundOf(args);
    this.exited = withCapturedOutput(this, () => main(args, { env: cliEnv(env), signals: this.#signals })).then(
      (code) => ({ code, signal: null }),
      // What node prints of an error that ends the process, and its exit code.
      (error: unknown) => {
        this.stderr += `${error instanceof Error ? error.stack : String(error)}\n`;
        return { code: 1, signal: null };
      },
    );
  }

  waitForOutput(pattern: RegExp, timeout = HANG_BOUND_MS): Promise<RegExpMatchArray> {
    return outputMatch(this, pattern, Math.max(timeout, this.#hangBoundMs));
  }

  waitForExit(timeout = HANG_BOUND_MS): Promise<Exit> {
    return exitWithin(this, Math.max(timeout, this.#hangBoundMs));
  }

  /** A stop signal, as the process would get it; a command must listen for it already (it does once it says it listens). */
  signal(signal: CliSignal): void {
    if (signal === 'SIGKILL') throw new Error('a command run in this process cannot be killed: start it with { process: true }');
    if (this.#signals.listenerCount(signal) === 0) throw new Error(`the command does not listen for ${signal} yet\nstdout: ${this.stdout}`);
    withCapturedOutput(this, () => this.#signals.emit(signal));
  }

  /** SIGTERM as soon as the command listens for it (a second would end a check or fuzz run at once), unless it ends first. */
  async stopWhenListening(): Promise<void> {
    let exited = false;
    void this.exited.then(() => (exited = true));
    while (!exited && this.#signals.listenerCount('SIGTERM') === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    if (!exited) withCapturedOutput(this, () => this.#signals.emit('SIGTERM'));
  }
}

/** A running `game-service` child, with its output collected as it arrives. */
export class CliProcess implements CliRun {
  readonly child: ChildProcess;
  stdout = '';
  stderr = '';
  readonly exited: Promise<Exit>;
  /** The least a wait gives it: a whole run for check and fuzz, else the start of a process. */
  readonly #hangBoundMs: number;

  /** `detached`: in a session of its own, without a controlling terminal, as in a CI job. */
  constructor(args: readonly string[], env: Record<string, string>, { detached = false } = {}) {
    this.child = spawn(NODE, [BIN, ...args], { cwd: ROOT, env: cliEnv(env), stdio: ['ignore', 'pipe', 'pipe'], detached });
    this.#hangBoundMs = hangBoundOf(args);
    this.child.stdout?.setEncoding('utf8').on('data', (text: string) => (this.stdout += text));
    this.child.stderr?.setEncoding('utf8').on('data', (text: string) => (this.stderr += text));
    this.exited = new Promise((resolve) => this.child.once('close', (code, signal) => resolve({ code, signal })));
  }

  waitForOutput(pattern: RegExp, timeout = HANG_BOUND_MS): Promise<RegExpMatchArray> {
    return outputMatch(this, pattern, Math.max(timeout, this.#hangBoundMs));
  }

  waitForExit(timeout = HANG_BOUND_MS): Promise<Exit> {
    return exitWithin(this, Math.max(timeout, this.#hangBoundMs));
  }

  signal(signal: CliSignal): void {
    this.child.kill(signal);
  }
}

/** Variables that force colours on or off whatever the output is: a test sees the CLI's own choice. */
const COLOUR_OVERRIDES = new Set(['FORCE_COLOR', 'NO_COLOR']);

/** The test's environment without any GAME_SERVICE_* or colour-forcing variable, plus the ones given. */
function cliEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith('GAME_SERVICE_') && !COLOUR_OVERRIDES.has(name)) env[name] = value;
  }
  return { ...env, ...extra };
}

/** How a test runs a command: in this process unless it asks for a child process, or needs one (a session of its own). */
export interface CliStartOptions {
  /** In a session of its own, without a controlling terminal, as in a CI job. */
  detached?: boolean;
  /** A child process: for what only a process has (SIGKILL, its pid, its exit when a signal comes twice). */
  process?: boolean;
}

const needsProcess = (options: CliStartOptions) => options.process === true || options.detached === true;

/** Stops a command left running by a test: SIGKILL for a child; SIGTERM, once it listens for it, for a run in this process. */
async function stopLeftRunning(cli: CliRun): Promise<void> {
  if (cli instanceof CliProcess) {
    if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL');
  } else if (cli instanceof InProcessCli) {
    await cli.stopWhenListening();
  }
  await cli.exited;
}

/** Runs `game-service` commands for a test file, and stops any still running after each test. */
export function useCli() {
  const running: CliRun[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map(stopLeftRunning));
  });
  function start(args: readonly string[], env: Record<string, string>, options: CliStartOptions & { process: true }): CliProcess;
  function start(args: readonly string[], env?: Record<string, string>, options?: CliStartOptions): CliRun;
  function start(args: readonly string[], env: Record<string, string> = {}, options: CliStartOptions = {}): CliRun {
    const cli = needsProcess(options) ? new CliProcess(args, env, options) : new InProcessCli(args, env);
    running.push(cli);
    return cli;
  }
  return {
    start,
    /** Runs a command that is expected to end by itself, and returns its exit with the full output. */
    async run(args: readonly string[], env: Record<string, string> = {}, timeoutMs = HANG_BOUND_MS, options: CliStartOptions = {}) {
      const cli = start(args, env, options);
      const exit = await cli.waitForExit(timeoutMs);
      return { ...exit, stdout: cli.stdout, stderr: cli.stderr };
    },
  };
}

/** Starts `mock` and resolves once it has printed its whole banner (URL, origins, client IP). */
export async function startMock(cli: ReturnType<typeof useCli>, args: readonly string[], env: Record<string, string> = {}, options: CliStartOptions = {}) {
  const process = cli.start(['mock', ...args], env, options);
  const [, url = '', port = ''] = await process.waitForOutput(/listening on (http:\/\/127\.0\.0\.1:(\d+))\n/);
  await process.waitForOutput(/Press Ctrl\+C to stop\.\n/);
  return { process, url, port: Number(port) };
}

/** Starts `mock --log-format json` and resolves with its parsed startup line once it listens. */
export async function startJsonMock(cli: ReturnType<typeof useCli>, args: readonly string[], env: Record<string, string> = {}) {
  const process = cli.start(['mock', '--log-format', 'json', ...args], env);
  const [line = ''] = await process.waitForOutput(/^\{.*"event":"listening".*\}$/m);
  const listening = JSON.parse(line) as { url: string } & Record<string, unknown>;
  return { process, url: listening.url, listening };
}
