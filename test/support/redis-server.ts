import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { freePort } from './free-port.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const REDIS_SERVER = '/usr/bin/redis-server';

/** Tests that need a real Redis fail with the remedy when there is none: they are never skipped. */
export function assertRedisInstalled(): void {
  if (!existsSync(REDIS_SERVER)) {
    throw new Error(
      `${REDIS_SERVER} is missing: these tests need a real Redis; install it with \`sudo apt-get install -y --no-install-recommends redis-server\` (npm test does, as root)`,
    );
  }
}

/** A redis-server of its own on a free loopback port, persistence off, in a temporary directory. */
export class RedisServer {
  readonly dir = mkdtempSync(join(tmpdir(), 'game-service-redis-'));
  port = 0;
  #process: ChildProcess | undefined;

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts it (again on the same port, after `stop`), resolving once it accepts connections. */
  async start(): Promise<void> {
    assertRedisInstalled();
    this.port ||= await freePort();
    const child = spawn(REDIS_SERVER, ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', this.dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.#process = child;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout!.setEncoding('utf8').on('data', (text: string) => {
        output += text;
        if (output.includes('Ready to accept connections')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`redis-server exited (${code}) before it was ready:\n${output}`)));
    });
  }

  async stop(): Promise<void> {
    const child = this.#process;
    this.#process = undefined;
    if (child === undefined || child.exitCode !== null) return;
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGKILL');
    });
  }

  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
