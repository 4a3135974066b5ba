import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';

/** A loopback port nothing listens on, for a server that cannot be told to take port 0. */
export async function freePort() {
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

const ticks = clockTicksPerSecond();

/** A process's CPU time so far (µs), from /proc: utime and stime, fields 14 and 15, after the name in parentheses. */
export function processCpuMicros(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / ticks) * 1e6;
}

/** Kills a server the bench started (if it still runs), waits for it to go, and removes its directory. */
export async function stopChild(child, dir) {
  if (child.exitCode === null) {
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await gone;
  }
  rmSync(dir, { recursive: true, force: true });
}
