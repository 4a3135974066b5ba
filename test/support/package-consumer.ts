import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { ROOT } from './cli.js';

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
  env['PATH'] = `${ROOT}node_modules/.bin:${process.env['PATH'] ?? ''}`;
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

/** Runs a command to its end; a failing one rejects with what it printed. */
export async function run(cwd: string, command: string, args: readonly string[]): Promise<Finished> {
  const finished = await new ConsumerProcess(cwd, command, args).finished;
  if (finished.code !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited ${finished.code}\nstdout: ${finished.stdout}\nstderr: ${finished.stderr}`);
  }
  return finished;
}

export interface PackedProject {
  tarball: string;
  /** Paths inside the package, as `npm pack` lists them. */
  files: string[];
}

/** `npm pack` of this checkout (dist/ as built) into a temporary directory. */
export async function packProject(): Promise<PackedProject> {
  const destination = await mkdtemp(join(tmpdir(), 'game-service-pack-'));
  const { stdout } = await run(destination, 'npm', ['pack', '--json', '--pack-destination', destination, ROOT]);
  const [packed] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  return { tarball: join(destination, packed!.filename), files: packed!.files.map((file) => file.path) };
}

/** An empty ESM project that installs the tarball the way a user would, with msw and vitest beside it. */
export async function installConsumer(tarball: string): Promise<string> {
  const project = await mkdtemp(join(tmpdir(), 'game-service-consumer-'));
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await run(project, 'npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, 'msw@3', 'vitest@5']);
  return project;
}
