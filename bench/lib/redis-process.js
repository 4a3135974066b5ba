import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, processCpuMicros, stopChild } from './loopback-process.js';

export const REDIS_SERVER = '/usr/bin/redis-server';

/** Why a scenario on Redis cannot run here, or undefined when it can. */
export const redisMissing = () => (existsSync(REDIS_SERVER) ? undefined : `${REDIS_SERVER} is missing (apt-get install redis-server)`);

/**
 * A redis-server of the bench's own on a free loopback port, persistence off, in a temporary directory;
 * `cpuMicros` reads its CPU time from /proc, so that the bench counts it with the mock and not as other work.
 */
export async function startRedisServer() {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'game-service-bench-redis-'));
  const child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (text) => {
      output += text;
      if (output.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}) before it was ready:\n${output}`)));
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    pid: child.pid,
    cpuMicros: () => processCpuMicros(child.pid),
    stop: () => stopChild(child, dir),
  };
}
