import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const REDIS_SERVER = '/usr/bin/redis-server';

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function clockTicksPerSecond() {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) || 100;
  } catch {
    return 100;
  }
}

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
  const ticks = clockTicksPerSecond();
  return {
    url: `redis://127.0.0.1:${port}`,
    pid: child.pid,
    cpuMicros() {
      // utime and stime, fields 14 and 15 of /proc/<pid>/stat, after the command name in parentheses.
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return ((Number(fields[11]) + Number(fields[12])) / ticks) * 1e6;
    },
    async stop() {
      if (child.exitCode === null) {
        const gone = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await gone;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
