import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify, stripVTControlCharacters } from 'node:util';
import { unsupportedNodeReason } from '../../src/node-version.js';
import { ROOT } from './cli.js';

const execFileAsync = promisify(execFile);

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The test's environment for npm and the installed CLI: the project's Node 24 first on PATH (npm and every
 * `#!/usr/bin/env node` bin then run on it), without what `npm test` and vitest set for this project, such as
 * npm_config_local_prefix, which would point a nested npm back at this checkout.
 */
function consumerEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(npm_config_local_prefix$|npm_package_|npm_lifecycle_|npm_command$|INIT_CWD$|VITEST|GAME_SERVICE_)/i.test(name)) env[name] = value;
  }
  env['PATH'] = `${ROOT}node_modules/.bin${delimiter}${process.env['PATH'] ?? ''}`;
  // Every package document revalidated: a version published between the test's npm install (which locks it) and
  // its npm ci (which resolves it again, the lockfile naming no download address) is then found, not refused.
  env['npm_config_prefer_online'] = 'true';
  return env;
}

/** A command started in `cwd`, in its own process group so that npx and everything it starts can be stopped at once. */
export class ConsumerProcess {
  readonly child: ChildProcess;
  stdout = '';
  stderr = '';
  readonly finished: Promise<Finished>;

  constructor(cwd: string, command: string, args: readonly string[]) {
    this.child = spawn(command, args, { cwd, env: consumerEnv(), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.stdout?.setEncoding('utf8').on('data', (text: string) => (this.stdout += text));
    this.child.stderr?.setEncoding('utf8').on('data', (text: string) => (this.stderr += text));
    this.finished = new Promise((resolve, reject) => {
      this.child.once('error', reject);
      this.child.once('close', (code) => resolve({ code, stdout: stripVTControlCharacters(this.stdout), stderr: this.stderr }));
    });
  }

  /** The first match of `pattern` in stdout; rejects with the output if the process ends first. */
  async waitForOutput(pattern: RegExp): Promise<RegExpMatchArray> {
    let ended = false;
    void this.finished.then(() => (ended = true));
    for (;;) {
      const match = stripVTControlCharacters(this.stdout).match(pattern);
      if (match !== null) return match;
      if (ended) throw new Error(`exited before printing ${pattern}\nstdout: ${this.stdout}\nstderr: ${this.stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** SIGTERM to the whole group (npx and the command it runs), and the exit. */
  stop(): Promise<Finished> {
    if (this.child.exitCode === null && this.child.pid !== undefined) process.kill(-this.child.pid, 'SIGTERM');
    return this.finished;
  }
}

/** Runs a command to its end, whatever its exit code. */
export function attempt(cwd: string, command: string, args: readonly string[]): Promise<Finished> {
  return new ConsumerProcess(cwd, command, args).finished;
}

/** Runs a command to its end; a failing one rejects with what it printed. */
export async function run(cwd: string, command: string, args: readonly string[]): Promise<Finished> {
  const finished = await attempt(cwd, command, args);
  if (finished.code !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited ${finished.code}\nstdout: ${finished.stdout}\nstderr: ${finished.stderr}`);
  }
  return finished;
}

/**
 * Clones this checkout into `clone` (an empty or missing directory) as a reader's `git clone` would give it, with its
 * tracked files as they are now, uncommitted edits included (`git stash create` records them without touching the
 * checkout); untracked and ignored files, dist/ among them, stay behind.
 */
export async function cloneCheckout(clone: string): Promise<void> {
  const revision = (await git('stash', 'create')).trim() || (await git('rev-parse', 'HEAD')).trim();
  await git('clone', '--quiet', '--no-checkout', ROOT, clone);
  await git('-C', clone, '-c', 'advice.detachedHead=false', 'checkout', '--quiet', revision);
}

/** Tries of a git command that finds the checkout's index locked, a quarter second more apart each time. */
const LOCKED_INDEX_TRIES = 20;

/**
 * A git command in this checkout, its stdout; a failure says git's own words. Optional locks are not taken
 * (GIT_OPTIONAL_LOCKS=0), and one that finds the index locked by another git (a second test run beside this
 * one, an editor) is tried again once that lock may be gone.
 */
async function git(...args: string[]): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      return (await execFileAsync('git', args, { cwd: ROOT, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' } })).stdout;
    } catch (error) {
      const { stderr, code } = error as { stderr?: string; code?: number | string };
      const said = (stderr ?? '').trim();
      if (said.includes('index.lock') && attempt < LOCKED_INDEX_TRIES) {
        await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
        continue;
      }
      throw new Error(`git ${args.join(' ')} failed (${code ?? 'no exit code'}): ${said || (error as Error).message}`);
    }
  }
}

/** The paths inside a packed tarball, as `npm pack` lists them (without tar's `package/`). */
export async function tarballFiles(tarball: string): Promise<string[]> {
  const { stdout } = await execFileAsync('tar', ['-tzf', tarball]);
  return stdout
    .split('\n')
    .filter((line) => line !== '' && !line.endsWith('/'))
    .map((line) => line.replace(/^package\//, ''));
}

/** An empty ESM project that installs `dependencies` (tarballs or registry specs) the way a user would. */
export async function installProject(dependencies: readonly string[]): Promise<string> {
  const project = await mkdtemp(join(tmpdir(), 'game-service-consumer-'));
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await run(project, 'npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...dependencies]);
  return project;
}

/** How many packages an install put on disk: its lockfile's entries, less other platforms' optional ones. */
export async function installedPackageCount(project: string): Promise<number> {
  const { packages } = JSON.parse(await readFile(join(project, 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
  return Object.keys(packages).filter((path) => path !== '' && existsSync(join(project, path))).length;
}

/** A Node.js on PATH older than the package supports (the system one, e.g. Debian's nodejs), to prove the guard with. */
export async function olderNode(): Promise<{ path: string; version: string }> {
  const candidates = (process.env['PATH'] ?? '').split(delimiter).map((dir) => join(dir, 'node'));
  for (const path of new Set(candidates.filter((path) => existsSync(path)))) {
    const version = (await execFileAsync(path, ['--version'])).stdout.trim();
    if (unsupportedNodeReason({ node: version.slice(1) }) !== undefined) return { path, version };
  }
  throw new Error("no Node.js older than 22.12 on PATH to prove the version guard with: install one, e.g. Debian's nodejs");
}
