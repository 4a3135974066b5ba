import { readFileSync } from 'node:fs';

/** Clock ticks a second in /proc/<pid>/stat (USER_HZ): 100 on every Linux this runs on. */
const TICKS_PER_SECOND = 100;

/** The CPU time (user and system, every thread) a running process has used so far, in ms; undefined without /proc. */
function cpuMsOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name, which may hold spaces: utime and stime are the 14th and 15th of the line.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/**
 * Follows the CPU time of a child until it exits (sampled every 50 ms, so the last few ms may be missed): on a
 * machine that others load, the wall time of a run measures them too, its CPU time only what the run itself did.
 * `result()` is undefined where /proc does not exist.
 */
export function followCpuTime(pid: number): { result(): number | undefined; stop(): void } {
  let last: number | undefined = cpuMsOf(pid);
  const timer = setInterval(() => {
    last = cpuMsOf(pid) ?? last;
  }, 50);
  return { result: () => last, stop: () => clearInterval(timer) };
}
