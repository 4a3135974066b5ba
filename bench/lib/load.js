import autocannon from 'autocannon';

/** One autocannon run; `requests` is autocannon's list, which each connection cycles through. */
export function runLoad({ url, requests, connections, durationSeconds }) {
  return autocannon({ url, requests, connections, duration: durationSeconds, pipelining: 1 });
}

/** The figures the report uses, from one autocannon result. */
export function summarize(result) {
  return {
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
}
