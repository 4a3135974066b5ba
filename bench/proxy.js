// What `game-service proxy` costs: the mock reached directly, and the same mock reached through the proxy, in
// one run with one load generator (autocannon): the latency it adds at a fixed rate, and its throughput as a
// share of the direct one at full speed. The mock, the proxy and the generator each run in their own process,
// and the measured time is cut into rounds that visit every scenario in turn, so that whatever else the machine
// does falls on both alike. The mock is a legal server: a single finding of the proxy fails the bench.
import { availableParallelism, cpus, loadavg } from 'node:os';
import { runLoad } from './lib/load.js';
import { aggregate, measureSlice } from './lib/measure.js';
import { median } from './lib/median.js';
import { benchOptions } from './lib/options.js';
import { formatRatio, isBroken, writeResults } from './lib/report.js';
import { GAME_ORIGIN } from './lib/scenarios.js';
import { seededToken } from './lib/seeded-players.js';
import { startServer } from './lib/server-process.js';

const RESULTS_FILE = new URL('./results/proxy.json', import.meta.url);
/** The issue's targets: at most this much added to the median latency, and at least this share of the direct rate. */
const ADDED_P50_TARGET_MS = 1;
const RATIO_TARGET = 0.5;
/** A realistic client: a handful of kept-alive connections, not a flood. */
const CONNECTIONS = 10;
/** The rate the added latency is measured at: well below what the proxy serves, so that no queue builds up. */
const FIXED_RATE = 1_000;
const number = new Intl.NumberFormat('en-US');
/** Each request is measured at full speed (for the throughput) and at the fixed rate (for the latency). */
const LOADS = [
  { id: 'full', label: 'full speed', judges: 'throughput' },
  { id: 'rate', label: `${number.format(FIXED_RATE)} req/s`, overallRate: FIXED_RATE, judges: 'latency' },
];
/** CPU cores of other work (processes, or the kernel's loopback share) above which the figures are suspect. */
const BUSY_MACHINE_CORES = 0.4;
const PLAYERS = 8;

const fromGame = { origin: GAME_ORIGIN };
const playerHeaders = Array.from({ length: PLAYERS }, (_, index) => ({ ...fromGame, authorization: `Bearer ${seededToken(index)}` }));

/** Both with the game origin, which exempts them from the public and read buckets: no 429 however long the run. */
const REQUESTS = [
  { id: 'health', label: 'GET /health', load: [{ method: 'GET', path: '/health', headers: fromGame }] },
  {
    id: 'player',
    label: `GET /api/player (${PLAYERS} players, game origin)`,
    load: playerHeaders.map((headers) => ({ method: 'GET', path: '/api/player', headers })),
  },
];

/** One plain request before the load: it must answer 200, through the proxy with the very body of the mock's. */
async function probe(url, { path, headers }, direct) {
  const response = await fetch(url + path, { headers });
  const answer = { status: response.status, contentType: response.headers.get('content-type'), body: await response.text() };
  if (answer.status !== 200) throw new Error(`GET ${url}${path} answered ${answer.status}: ${answer.body}`);
  if (direct !== undefined && (answer.body !== direct.body || answer.contentType !== direct.contentType)) {
    throw new Error(`GET ${path} through the proxy differs from the mock's: ${answer.contentType} ${answer.body} vs ${direct.contentType} ${direct.body}`);
  }
  return answer;
}

/** The mock's and the proxy's CPU time together: what a request through the proxy costs the machine. */
function bothCpu(mock, proxy) {
  return {
    async cpu() {
      const [own, proxied] = [await mock.cpu(), await proxy.cpu()];
      return { cpuMicros: own.cpuMicros + proxied.cpuMicros, at: proxied.at };
    },
  };
}

/** Each round visits every scenario, starting one further each time; the proxy's own CPU time is kept per slice. */
async function measureRounds(entries, rounds, sliceSeconds) {
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[(round + i) % entries.length];
      const proxyBefore = entry.proxy === undefined ? undefined : await entry.proxy.cpu();
      const slice = await measureSlice(entry.server, entry.load, sliceSeconds);
      if (proxyBefore !== undefined) slice.proxyCpuMs = ((await entry.proxy.cpu()).cpuMicros - proxyBefore.cpuMicros) / 1000;
      entry.slices.push(slice);
    }
  }
}

const round2 = (x) => Math.round(x * 100) / 100;

/**
 * The figures of one scenario over its slices; for a proxied one, what it adds to its direct twin round by round,
 * judged by what its load is for: the throughput at full speed, the added p50 at the fixed rate.
 */
function result(entry, direct) {
  const { slices } = entry;
  const figures = {
    id: entry.id,
    label: entry.label,
    ...aggregate(slices),
    preciseLatencyMs: {
      p50: round2(median(slices.map((s) => s.preciseLatencyMs.p50))),
      p99: round2(median(slices.map((s) => s.preciseLatencyMs.p99))),
    },
  };
  if (direct === undefined) return figures;
  const requests = slices.reduce((sum, s) => sum + s.requests, 0);
  const roundRatios = slices.map((s, round) => round2(s.requestsPerSecond / direct.slices[round].requestsPerSecond));
  const added = (pick) => slices.map((s, round) => round2(pick(s) - pick(direct.slices[round])));
  const roundAddedP50Ms = added((s) => s.preciseLatencyMs.p50);
  const roundAddedP99Ms = added((s) => s.preciseLatencyMs.p99);
  const ratio = median(roundRatios);
  const addedP50Ms = round2(median(roundAddedP50Ms));
  const verdict = entry.judges === 'latency' ? (addedP50Ms <= ADDED_P50_TARGET_MS ? 'PASS' : 'MISSED') : ratio >= RATIO_TARGET ? 'PASS' : 'MISSED';
  return {
    ...figures,
    judges: entry.judges,
    proxyCpuMicrosPerRequest: Math.round((slices.reduce((sum, s) => sum + s.proxyCpuMs, 0) * 10_000) / requests) / 10,
    ratio,
    roundRatios,
    addedP50Ms,
    roundAddedP50Ms,
    addedP99Ms: round2(median(roundAddedP99Ms)),
    roundAddedP99Ms,
    verdict,
  };
}

const target = (r) => (r.judges === 'latency' ? `p50 added ≤ ${ADDED_P50_TARGET_MS} ms` : `≥ ${RATIO_TARGET}× direct`);

function markdownTable(results) {
  const rows = results.map((r) =>
    [
      r.label,
      number.format(r.requestsPerSecond),
      r.preciseLatencyMs.p50.toFixed(2),
      r.preciseLatencyMs.p99.toFixed(2),
      `${r.latencyMs.p50} / ${r.latencyMs.p99}`,
      r.addedP50Ms === undefined ? '—' : `${r.addedP50Ms.toFixed(2)} / ${r.addedP99Ms.toFixed(2)}`,
      r.judges === 'throughput' ? formatRatio(r.ratio) : '—',
      r.verdict === undefined ? '—' : `${target(r)} ${r.verdict}`,
      r.serverCpuMicrosPerRequest.toFixed(1),
      r.proxyCpuMicrosPerRequest === undefined ? '—' : r.proxyCpuMicrosPerRequest.toFixed(1),
    ].join(' | '),
  );
  return [
    '| Scenario | req/s | p50 (ms) | p99 (ms) | autocannon p50 / p99 (ms) | Added p50 / p99 (ms) | vs direct | Target | CPU µs/req (mock + proxy) | of which the proxy |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |',
    ...rows.map((row) => `| ${row} |`),
    '',
    "_req/s, p50 and p99: medians over the rounds, from every answer's own time (autocannon's in whole ms, and at the fixed_",
    '_rate corrected for coordinated omission);_',
    "_added and vs direct: medians of each round's difference and ratio to the direct scenario at the same load in that round._",
  ].join('\n');
}

/** What the proxy judged: it must have seen every request and found nothing, the mock being a legal server. */
async function proxyFindings(proxyUrl) {
  const response = await fetch(`${proxyUrl}/__proxy/findings`);
  if (response.status !== 200) throw new Error(`GET /__proxy/findings answered ${response.status}: ${await response.text()}`);
  const { exchanges, findings, byRule } = await response.json();
  return { exchanges, findings, byRule };
}

const loadAverages = () => loadavg().map((x) => round2(x));

async function main() {
  const options = benchOptions(process.argv.slice(2), process.env, { script: 'proxy.js', connections: CONNECTIONS, countedScenarios: false });
  const sliceSeconds = options.durationSeconds / options.rounds;
  const loadBefore = loadAverages();
  console.log(
    `Node ${process.version}, ${availableParallelism()} CPUs (${cpus()[0]?.model.trim()}); ${options.connections} connections; ` +
      `per scenario ${options.warmupSeconds} s warm-up, then ${options.rounds} rounds of ${sliceSeconds} s; load average ${loadBefore.join(', ')}\n`,
  );
  const mock = await startServer('mock-server.js', [GAME_ORIGIN, String(PLAYERS)]);
  let proxy;
  const entries = [];
  let findings;
  try {
    proxy = await startServer('proxy-server.js', [mock.url, GAME_ORIGIN]);
    for (const request of REQUESTS) {
      const probed = { path: request.load[0].path, headers: request.load[0].headers };
      await probe(proxy.url, probed, await probe(mock.url, probed));
      for (const { id, label, overallRate, judges } of LOADS) {
        const load = { url: mock.url, requests: request.load, connections: options.connections, preciseLatency: true, overallRate };
        const direct = { id: `direct-${request.id}-${id}`, label: `mock, ${request.label}, ${label}`, server: mock, load, slices: [] };
        const through = {
          id: `proxied-${request.id}-${id}`,
          label: `proxy → mock, ${request.label}, ${label}`,
          server: bothCpu(mock, proxy),
          proxy,
          load: { ...load, url: proxy.url },
          slices: [],
          directId: direct.id,
          judges,
        };
        entries.push(direct, through);
      }
    }
    for (const entry of entries) await runLoad({ ...entry.load, durationSeconds: options.warmupSeconds });
    await measureRounds(entries, options.rounds, sliceSeconds);
    findings = await proxyFindings(proxy.url);
  } finally {
    await proxy?.stop();
    await mock.stop();
  }
  const loadAfter = loadAverages();

  const results = entries.map((entry) =>
    result(
      entry,
      entries.find((e) => e.id === entry.directId),
    ),
  );
  for (const r of results) {
    console.log(
      `${r.label}: ${r.requestsPerSecond} req/s (rounds: ${r.sliceRequestsPerSecond.join(', ')}), p50 ${r.preciseLatencyMs.p50} ms, ` +
        `p99 ${r.preciseLatencyMs.p99} ms, non-2xx ${r.non2xx}, errors ${r.errors}, generator CPU ${Math.round(r.generatorCpu * 100)}%` +
        (r.otherCores === undefined ? '' : `, other work ${r.otherCores} cores`),
    );
    if (isBroken(r)) console.warn(`  WARNING: failed requests ${JSON.stringify(r.statusCodes)}: this measurement is broken`);
  }
  const busiest = Math.max(...results.map((r) => r.otherCores ?? 0));
  const busyMachine = busiest > BUSY_MACHINE_CORES;
  if (busyMachine) {
    console.warn(`WARNING: other work used a median of up to ${busiest} cores while measuring: the figures below are unreliable. Rerun on a quiet machine.`);
  }
  console.log(`Load average (1, 5, 15 min): ${loadBefore.join(', ')} before, ${loadAfter.join(', ')} after`);

  console.log(`\n${markdownTable(results)}\n`);
  const proxied = results.filter((r) => r.verdict !== undefined);
  for (const r of proxied) {
    const spread = (values, format) => `rounds ${format(Math.min(...values))}–${format(Math.max(...values))}`;
    const figure =
      r.judges === 'latency'
        ? `adds ${r.addedP50Ms} ms at p50 (${spread(r.roundAddedP50Ms, (x) => `${x} ms`)}) and ${r.addedP99Ms} ms at p99`
        : `at ${formatRatio(r.ratio)} the direct rate (${spread(r.roundRatios, formatRatio)})`;
    console.log(`${r.verdict}: ${r.label} ${figure}; target ${target(r)}`);
  }
  console.log(`${findings.findings === 0 ? 'PASS' : 'FAILED'}: the proxy judged ${findings.exchanges} exchanges and reported ${findings.findings} findings`);
  for (const each of findings.byRule) console.log(`  ${String(each.count).padStart(5)}  ${each.side} ${each.rule} «${each.sentence}»`);

  await writeResults(RESULTS_FILE, {
    loadGenerator: 'autocannon',
    options,
    loadAverage: { before: loadBefore, after: loadAfter },
    busyMachine,
    targets: { addedP50Ms: ADDED_P50_TARGET_MS, atRate: FIXED_RATE, ratio: RATIO_TARGET },
    proxyFindings: findings,
    scenarios: results,
  });
  console.log(`\nResults written to ${RESULTS_FILE.pathname}`);
  const missed = proxied.some((r) => r.verdict !== 'PASS');
  process.exitCode = missed || findings.findings > 0 || results.some(isBroken) ? 1 : 0;
}

main().catch((error) => {
  console.error(error.usage ? error.message : error);
  process.exitCode = 2;
});
