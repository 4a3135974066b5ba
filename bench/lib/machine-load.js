import { readFileSync } from 'node:fs';

/**
 * Busy and total CPU time of the whole machine so far, from /proc/stat (Linux only; undefined elsewhere).
 * Busy minus what the server and the generator used is work the benchmark did not ask for: other
 * processes, or the kernel's share of loopback traffic.
 */
export function machineCpu() {
  let lines;
  try {
    lines = readFileSync('/proc/stat', 'utf8').split('\n');
  } catch {
    return undefined;
  }
  // cpu  user nice system idle iowait irq softirq steal ...
  const [user, nice, system, idle, iowait, irq, softirq, steal] = lines[0].trim().split(/\s+/).slice(1).map(Number);
  const cpuCount = lines.filter((line) => /^cpu\d/.test(line)).length;
  const busy = user + nice + system + irq + softirq + steal;
  return { busy, total: busy + idle + iowait, cpuCount };
}

/** Cores busy on average between two readings. */
export function busyCores(before, after) {
  if (before === undefined || after === undefined || after.total === before.total) return undefined;
  return ((after.busy - before.busy) / (after.total - before.total)) * after.cpuCount;
}
