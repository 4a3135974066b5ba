import autocannon from 'autocannon';

/**
 * One autocannon run; `requests` is autocannon's list, which each connection cycles through; `overallRate`, if
 * given, the requests a second of all connections together (as fast as answered without it). With
 * `preciseLatency`, the time of every 2xx answer is kept as autocannon measured it (fractions of a ms), since
 * its own percentiles are whole milliseconds: too coarse to tell a fraction of a millisecond added.
 */
export async function runLoad({ url, requests, connections, durationSeconds, preciseLatency = false, overallRate }) {
  const run = autocannon({ url, requests, connections, duration: durationSeconds, pipelining: 1, ...(overallRate === undefined ? {} : { overallRate }) });
  if (!preciseLatency) return run;
  const responseTimesMs = [];
  run.on('response', (_client, status, _bytes, responseTimeMs) => {
    if (status >= 200 && status < 300) responseTimesMs.push(responseTimeMs);
  });
  return { ...(await run), responseTimesMs };
}

const round2 = (x) => Math.round(x * 100) / 100;

/** The p-th percentile (0–100) of the times, nearest rank, to 0.01 ms. */
function percentile(sorted, p) {
  return round2(sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]);
}

/** The figures the report uses, from one autocannon result. */
export function summarize(result) {
  const summary = {
    requests: result.requests.total,
    durationSeconds: result.duration,
    requestsPerSecond: Math.round(result.requests.total / result.duration),
    // autocannon records 2xx latencies only, in whole milliseconds.
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99, average: result.latency.average, max: result.latency.max },
    non2xx: result.non2xx,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([status, { count }]) => [status, count])),
    errors: result.errors,
    timeouts: result.timeouts,
  };
  if (result.responseTimesMs !== undefined && result.responseTimesMs.length > 0) {
    const sorted = Float64Array.from(result.responseTimesMs).sort();
    summary.preciseLatencyMs = { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
  }
  return summary;
}
