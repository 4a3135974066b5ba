import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';

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

/** A running `game-service` child, with its output collected as it arrives. */
export class CliProcess {
  readonly child: ChildProcess;
  stdout = '';
  stderr = '';
  readonly exited: Promise<Exit>;
  /** The least a wait gives it: a whole run for check and fuzz, else the start of a process. */
  readonly #hangBoundMs: number;

  /** `detached`: in a session of its own, without a controlling terminal, as in a CI job. */
  constructor(args: readonly string[], env: Record<string, string>, { detached = false } = {}) {
    this.child = spawn(NODE, [BIN, ...args], { cwd: ROOT, env: cliEnv(env), stdio: ['ignore', 'pipe', 'pipe'], detached });
    this.#hangBoundMs = args[0] === 'check' || args[0] === 'fuzz' ? RUN_HANG_BOUND_MS : HANG_BOUND_MS;
    this.child.stdout?.setEncoding('utf8').on('data', (text: string) => (this.stdout += text));
    this.child.stderr?.setEncoding('utf8').on('data', (text: string) => (this.stderr += text));
    this.exited = new Promise((resolve) => this.child.once('close', (code, signal) => resolve({ code, signal })));
  }

  /** Resolves with the first match of `pattern` in stdout; rejects on exit or after `timeoutMs`. */
  async waitForOutput(pattern: RegExp, timeout = HANG_BOUND_MS): Promise<RegExpMatchArray> {
    const timeoutMs = Math.max(timeout, this.#hangBoundMs);
    const deadline = Date.now() + timeoutMs;
    let exited = false;
    void this.exited.then(() => (exited = true));
    for (;;) {
      const match = this.stdout.match(pattern);
      if (match !== null) return match;
      if (exited || Date.now() > deadline) {
        const why = exited ? 'the process exited' : `${timeoutMs} ms passed`;
        throw new Error(`${why} before stdout matched ${pattern}\nstdout: ${this.stdout}\nstderr: ${this.stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** The exit, or a rejection naming what was printed if it does not come within `timeoutMs`. */
  waitForExit(timeout = HANG_BOUND_MS): Promise<Exit> {
    const timeoutMs = Math.max(timeout, this.#hangBoundMs);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`no exit within ${timeoutMs} ms\nstdout: ${this.stdout}\nstderr: ${this.stderr}`));
      }, timeoutMs);
      void this.exited.then((exit) => {
        clearTimeout(timer);
        resolve(exit);
      });
    });
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

/** Spawns CLI children for a test file and SIGKILLs any still running after each test. */
export function useCli() {
  const children: CliProcess[] = [];
  afterEach(async () => {
    await Promise.all(
      children.splice(0).map(async (cli) => {
        if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL');
        await cli.exited;
      }),
    );
  });
  return {
    start(args: readonly string[], env: Record<string, string> = {}, options: { detached?: boolean } = {}): CliProcess {
      const cli = new CliProcess(args, env, options);
      children.push(cli);
      return cli;
    },
    /** Runs a command that is expected to end by itself, and returns its exit with the full output. */
    async run(args: readonly string[], env: Record<string, string> = {}, timeoutMs = HANG_BOUND_MS, options: { detached?: boolean } = {}) {
      const cli = this.start(args, env, options);
      const exit = await cli.waitForExit(timeoutMs);
      return { ...exit, stdout: cli.stdout, stderr: cli.stderr };
    },
  };
}

/** Starts `mock` and resolves once it has printed its whole banner (URL, origins, client IP). */
export async function startMock(cli: ReturnType<typeof useCli>, args: readonly string[], env: Record<string, string> = {}) {
  const process = cli.start(['mock', ...args], env);
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
