import { generateLoad } from './generator.js';
import { busyCores, machineCpu } from './machine-load.js';
import { median } from './median.js';

const round2 = (x) => Math.round(x * 100) / 100;

/** One measured slice of load, with the CPU time the server and the generator spent meanwhile. */
export async function measureSlice(server, load, durationSeconds) {
  const serverBefore = await server.cpu();
  const machineBefore = machineCpu();
  const result = await generateLoad(load, durationSeconds);
  const machineAfter = machineCpu();
  const serverAfter = await server.cpu();
  // The slice lasts longer than the load (the generator starts, and formats a long list first): the server's share
  // is of the time the load was sent, the machine's other work of the whole slice.
  const sliceMs = serverAfter.at - serverBefore.at;
  const slice = { ...result, server: { cpuMs: (serverAfter.cpuMicros - serverBefore.cpuMicros) / 1000, wallMs: result.generator.wallMs } };
  const machine = busyCores(machineBefore, machineAfter);
  if (machine !== undefined) {
    slice.otherCores = machine - (slice.server.cpuMs + slice.generator.cpuMs + slice.generator.setupCpuMs) / sliceMs;
  }
  return slice;
}

/**
 * Measures every running scenario in `rounds` slices of `sliceSeconds`, rotated each round so that no
 * scenario always follows the same one; each entry's slices are added to `entry.slices`.
 */
export async function measureRounds(running, rounds, sliceSeconds) {
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < running.length; i++) {
      const entry = running[(round + i) % running.length];
      entry.slices.push(await measureSlice(entry.server, entry.load, sliceSeconds));
    }
  }
}

/**
 * Folds a scenario's slices into one figure each. Medians for rate and p99, so that a slice disturbed
 * by something else on the machine does not decide the verdict; failures are summed, never medianed.
 */
export function aggregate(slices) {
  const sum = (pick) => slices.reduce((total, slice) => total + pick(slice), 0);
  const statusCodes = {};
  for (const slice of slices) {
    for (const [status, count] of Object.entries(slice.statusCodes)) statusCodes[status] = (statusCodes[status] ?? 0) + count;
  }
  return {
    requestsPerSecond: Math.round(median(slices.map((s) => s.requestsPerSecond))),
    latencyMs: { p50: round2(median(slices.map((s) => s.latencyMs.p50))), p99: round2(median(slices.map((s) => s.latencyMs.p99))) },
    requests: sum((s) => s.requests),
    non2xx: sum((s) => s.non2xx),
    errors: sum((s) => s.errors),
    timeouts: sum((s) => s.timeouts),
    statusCodes,
    // A server well below 100% CPU means the generator (or the machine) set the pace, not the server.
    serverCpu: round2(sum((s) => s.server.cpuMs) / sum((s) => s.server.wallMs)),
    // Unlike the rate, this hardly depends on how fast the generator was: the fairer cost comparison.
    serverCpuMicrosPerRequest: Math.round((sum((s) => s.server.cpuMs) * 10_000) / sum((s) => s.requests)) / 10,
    generatorCpu: round2(sum((s) => s.generator.cpuMs) / sum((s) => s.generator.wallMs)),
    sliceRequestsPerSecond: slices.map((s) => s.requestsPerSecond),
    otherCores: slices[0].otherCores === undefined ? undefined : round2(median(slices.map((s) => s.otherCores))),
  };
}
