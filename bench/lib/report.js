import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus } from 'node:os';
import { median } from './median.js';

/** Any failed request means the scenario did not measure what it claims to. */
export function isBroken(result) {
  return result.non2xx > 0 || result.errors > 0 || result.timeouts > 0;
}

/**
 * Adds each scenario's ratio to the baseline and, where it has a target, whether it was met. The ratio
 * is the median of the rounds' ratios: each round's slices ran close together in time, so a load
 * that comes and goes on the machine cancels out of each round's ratio.
 */
export function judge(results, baselineId) {
  const baseline = results.find((r) => r.id === baselineId);
  return results.map((r) => {
    const roundRatios = r.sliceRequestsPerSecond.map((rate, round) => rate / baseline.sliceRequestsPerSecond[round]);
    const ratio = median(roundRatios);
    const verdict = r.target === undefined ? undefined : ratio >= r.target ? 'PASS' : 'BELOW TARGET';
    const round4 = (x) => Math.round(x * 10_000) / 10_000;
    return { ...r, ratio: round4(ratio), roundRatios: roundRatios.map(round4), verdict, broken: isBroken(r) };
  });
}

const number = new Intl.NumberFormat('en-US');
/** Rounded down, so a ratio just below its target never prints as the target itself. */
export const formatRatio = (ratio) => `${(Math.floor(ratio * 100) / 100).toFixed(2)}×`;

/** The lowest and highest of the rounds' figures, for a verdict's line. */
export const formatSpread = (values, format = formatRatio) => `rounds ${format(Math.min(...values))}–${format(Math.max(...values))}`;

export function markdownTable(judged) {
  const rows = judged.map((r) =>
    [
      r.label,
      number.format(r.requestsPerSecond),
      String(r.latencyMs.p99),
      formatRatio(r.ratio),
      r.target === undefined ? '—' : `≥ ${r.target}× ${r.verdict}`,
      `${Math.round(r.serverCpu * 100)}%`,
      r.serverCpuMicrosPerRequest.toFixed(1),
    ].join(' | '),
  );
  return [
    '| Scenario | req/s | p99 (ms) | vs baseline | Target | Server CPU | Server CPU µs/req |',
    '| --- | ---: | ---: | ---: | --- | ---: | ---: |',
    ...rows.map((row) => `| ${row} |`),
    '',
    "_req/s and p99: medians over the rounds; vs baseline: median of each round's ratio to the baseline in that round._",
  ].join('\n');
}

/** Writes a bench's results as JSON, after when and where they were measured (the date, Node, the CPUs). */
export async function writeResults(file, report) {
  const measuredOn = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model.trim(),
  };
  await mkdir(new URL('.', file), { recursive: true });
  await writeFile(file, `${JSON.stringify({ ...measuredOn, ...report }, null, 2)}\n`);
}
