// What `game-service proxy` costs, against its floors: the mock reached directly, through a raw Node pass-through
// (bench/servers/pass-through-server.js: the same parts, no judging), through nginx where Debian's is installed,
// and through the proxy, in one run. At full speed (wrk) the proxy's throughput is judged as a share of the
// pass-through's; at a fixed rate (autocannon) the latency it adds to the direct mock. Nothing is pinned: a Node
// front pinned to the mock's core ran at a third of its unpinned rate on the 2-core development machine (the
// processes wait on each other's turn), which would judge the scheduler, not the front. The measured time is cut
// into rounds that visit every scenario in turn, so that whatever else the machine does falls on all alike. The
// mock is a legal server: a single finding of the proxy fails the bench, and so does an exchange it passed but
// did not judge.
import { availableParallelism, cpus, loadavg } from 'node:os';
import { generateLoad } from './lib/generator.js';
import { aggregate, measureSlice } from './lib/measure.js';
import { median } from './lib/median.js';
import { nginxMissing, startNginx } from './lib/nginx-process.js';
import { benchOptions } from './lib/options.js';
import { formatRatio, formatSpread, isBroken, writeResults } from './lib/report.js';
import { GAME_ORIGIN } from './lib/scenarios.js';
import { seededToken } from './lib/seeded-players.js';
import { startServer } from './lib/server-process.js';
import { wrkMissing } from './lib/wrk.js';

const RESULTS_FILE = new URL('./results/proxy.json', import.meta.url);
/** The issue's targets: at most this much added to the direct median latency, at least this share of the pass-through's rate. */
const ADDED_P50_TARGET_MS = 1;
const RATIO_TARGET = 0.9;
/** A realistic client: a handful of kept-alive connections, not a flood. */
const CONNECTIONS = 10;
/** The rate the added latency is measured at: well below what the proxy serves, so that no queue builds up. */
const FIXED_RATE = 1_000;
const number = new Intl.NumberFormat('en-US');
/** Each request is measured at full speed (for the throughput, by wrk) and at the fixed rate (for the latency, by autocannon). */
const LOADS = [
  { id: 'full', label: 'full speed', judges: 'throughput', generator: 'wrk' },
  { id: 'rate', label: `${number.format(FIXED_RATE)} req/s`, overallRate: FIXED_RATE, judges: 'latency', generator: 'autocannon' },
];
/** CPU cores of other work (processes, or the kernel's loopback share) above which the figures are suspect. */
const BUSY_MACHINE_CORES = 0.4;
const PLAYERS = 8;
/** How long the bench waits for the proxy to judge what it passed at full speed, before it reads its findings. */
const JUDGED_WITHIN_MS = 60_000;

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

/**
 * What stands between the load and the mock: the floors first (the pass-through the proxy is judged against, nginx
 * where installed), the proxy last. `start` gives a server with `url`, `pid`, `cpu()` and `stop()`.
 */
const FRONTS = [
  { id: 'pass-through', label: 'pass-through → mock', start: (mock) => startServer('pass-through-server.js', [mock.url]) },
  { id: 'nginx', label: 'nginx → mock', missing: nginxMissing, start: (mock) => startNginx(mock.url) },
  { id: 'proxy', label: 'proxy → mock', start: (mock) => startServer('proxy-server.js', [mock.url, GAME_ORIGIN]) },
];

/** One plain request before the load: it must answer 200, through a front with the very body of the mock's. */
async function probe(url, { path, headers }, direct) {
  const response = await fetch(url + path, { headers });
  const answer = { status: response.status, contentType: response.headers.get('content-type'), body: await response.text() };
  if (answer.status !== 200) throw new Error(`GET ${url}${path} answered ${answer.status}: ${answer.body}`);
  if (direct !== undefined && (answer.body !== direct.body || answer.contentType !== direct.contentType)) {
    throw new Error(`GET ${path} through ${url} differs from the mock's: ${answer.contentType} ${answer.body} vs ${direct.contentType} ${direct.body}`);
  }
  return answer;
}

/** The mock's and the front's CPU time together: what a request through the front costs the machine. */
function bothCpu(mock, front) {
  return {
    async cpu() {
      const [own, fronted] = [await mock.cpu(), await front.cpu()];
      return { cpuMicros: own.cpuMicros + fronted.cpuMicros, at: fronted.at };
    },
  };
}

/** Each round visits every scenario, starting one further each time; the front's own CPU time is kept per slice. */
async function measureRounds(entries, rounds, sliceSeconds) {
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[(round + i) % entries.length];
      const frontBefore = entry.front === undefined ? undefined : await entry.front.cpu();
      const slice = await measureSlice(entry.server, entry.load, sliceSeconds);
      if (frontBefore !== undefined) slice.frontCpuMs = ((await entry.front.cpu()).cpuMicros - frontBefore.cpuMicros) / 1000;
      entry.slices.push(slice);
    }
  }
}

const round2 = (x) => Math.round(x * 100) / 100;

/** Round by round, the ratio of one scenario's rate to another's, and the difference of a latency. */
const roundRatios = (entry, other) => entry.slices.map((s, round) => round2(s.requestsPerSecond / other.slices[round].requestsPerSecond));
const roundAdded = (entry, other, pick) => entry.slices.map((s, round) => round2(pick(s) - pick(other.slices[round])));
/** A slice's latency: every answer's own time where the generator kept it (autocannon at the fixed rate), else wrk's. */
const p50 = (slice) => (slice.preciseLatencyMs ?? slice.latencyMs).p50;
const p99 = (slice) => (slice.preciseLatencyMs ?? slice.latencyMs).p99;

/**
 * The figures of one scenario over its slices; for a fronted one, what it adds to the direct twin and its share
 * of the pass-through's rate, round by round; for the proxy, the verdict of what its load is for.
 */
function result(entry, direct, passThrough) {
  const { slices } = entry;
  const figures = {
    id: entry.id,
    label: entry.label,
    ...aggregate(slices),
    latencyP50Ms: round2(median(slices.map(p50))),
    latencyP99Ms: round2(median(slices.map(p99))),
  };
  if (direct === undefined) return figures;
  const requests = slices.reduce((sum, s) => sum + s.requests, 0);
  const fronted = {
    ...figures,
    front: entry.frontId,
    judges: entry.judges,
    frontCpuMicrosPerRequest: Math.round((slices.reduce((sum, s) => sum + s.frontCpuMs, 0) * 10_000) / requests) / 10,
    directRatio: median(roundRatios(entry, direct)),
    roundAddedP50Ms: roundAdded(entry, direct, p50),
    addedP50Ms: round2(median(roundAdded(entry, direct, p50))),
    addedP99Ms: round2(median(roundAdded(entry, direct, p99))),
  };
  if (passThrough !== undefined && passThrough !== entry) {
    fronted.roundPassThroughRatios = roundRatios(entry, passThrough);
    fronted.passThroughRatio = median(fronted.roundPassThroughRatios);
  }
  if (entry.frontId !== 'proxy') return fronted;
  const met = entry.judges === 'latency' ? fronted.addedP50Ms <= ADDED_P50_TARGET_MS : fronted.passThroughRatio >= RATIO_TARGET;
  return { ...fronted, verdict: met ? 'PASS' : 'MISSED' };
}

const target = (r) => (r.judges === 'latency' ? `p50 added ≤ ${ADDED_P50_TARGET_MS} ms` : `≥ ${RATIO_TARGET}× pass-through`);

function markdownTable(results) {
  const rows = results.map((r) =>
    [
      r.label,
      number.format(r.requestsPerSecond),
      r.latencyP50Ms.toFixed(2),
      r.latencyP99Ms.toFixed(2),
      r.addedP50Ms === undefined ? '—' : `${r.addedP50Ms.toFixed(2)} / ${r.addedP99Ms.toFixed(2)}`,
      r.judges === 'throughput' ? formatRatio(r.directRatio) : '—',
      r.judges === 'throughput' && r.passThroughRatio !== undefined ? formatRatio(r.passThroughRatio) : '—',
      r.verdict === undefined ? '—' : `${target(r)} ${r.verdict}`,
      r.serverCpuMicrosPerRequest.toFixed(1),
      r.frontCpuMicrosPerRequest === undefined ? '—' : r.frontCpuMicrosPerRequest.toFixed(1),
    ].join(' | '),
  );
  return [
    '| Scenario | req/s | p50 (ms) | p99 (ms) | Added p50 / p99 (ms) | vs direct | vs pass-through | Target | CPU µs/req (mock + front) | of which the front |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |',
    ...rows.map((row) => `| ${row} |`),
    '',
    "_req/s, p50 and p99: medians over the rounds (at the fixed rate, from every answer's own time, corrected for_",
    "_coordinated omission; at full speed, wrk's); added, vs direct and vs pass-through: medians of each round's_",
    '_difference and ratio to the other scenario at the same load in that round._',
  ].join('\n');
}

/**
 * What the proxy judged, once it has judged all it passed: it must have judged every exchange and found nothing,
 * the mock being a legal server.
 */
async function proxyFindings(proxyUrl) {
  const deadline = Date.now() + JUDGED_WITHIN_MS;
  for (;;) {
    const response = await fetch(`${proxyUrl}/__proxy/findings`);
    if (response.status !== 200) throw new Error(`GET /__proxy/findings answered ${response.status}: ${await response.text()}`);
    const { exchanges, findings, byRule, waiting = 0 } = await response.json();
    if (waiting === 0 || Date.now() > deadline) return { exchanges, findings, byRule, waiting };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const loadAverages = () => loadavg().map((x) => round2(x));

/** Starts the fronts that can run here; says why one cannot. */
async function startFronts(mock) {
  const fronts = [];
  for (const front of FRONTS) {
    const missing = front.missing?.();
    if (missing !== undefined) {
      console.log(`${front.label}: skipped, ${missing}`);
      continue;
    }
    fronts.push({ ...front, server: await front.start(mock) });
  }
  return fronts;
}

async function main() {
  const options = benchOptions(process.argv.slice(2), process.env, { script: 'proxy.js', connections: CONNECTIONS, countedScenarios: false, alwaysWrk: true });
  const missing = wrkMissing();
  if (missing !== undefined) throw Object.assign(new Error(missing), { usage: true });
  const sliceSeconds = options.durationSeconds / options.rounds;
  const loadBefore = loadAverages();
  console.log(
    `Node ${process.version}, ${availableParallelism()} CPUs (${cpus()[0]?.model.trim()}); ${options.connections} connections, unpinned; ` +
      `per scenario ${options.warmupSeconds} s warm-up, then ${options.rounds} rounds of ${sliceSeconds} s; load average ${loadBefore.join(', ')}\n`,
  );
  const mock = await startServer('mock-server.js', [GAME_ORIGIN, String(PLAYERS)]);
  let fronts = [];
  const entries = [];
  let findings;
  try {
    fronts = await startFronts(mock);
    for (const request of REQUESTS) {
      const probed = { path: request.load[0].path, headers: request.load[0].headers };
      const direct = await probe(mock.url, probed);
      for (const front of fronts) await probe(front.server.url, probed, direct);
      for (const { id, label, overallRate, judges, generator } of LOADS) {
        const load = { url: mock.url, requests: request.load, connections: options.connections, preciseLatency: true, overallRate, generator };
        const directId = `direct-${request.id}-${id}`;
        entries.push({ id: directId, label: `mock, ${request.label}, ${label}`, server: mock, load: { ...load, position: { next: 0 } }, slices: [] });
        for (const front of fronts) {
          entries.push({
            id: `${front.id}-${request.id}-${id}`,
            label: `${front.label}, ${request.label}, ${label}`,
            server: bothCpu(mock, front.server),
            front: front.server,
            frontId: front.id,
            load: { ...load, url: front.server.url, position: { next: 0 } },
            slices: [],
            directId,
            passThroughId: `pass-through-${request.id}-${id}`,
            judges,
          });
        }
      }
    }
    for (const entry of entries) await generateLoad(entry.load, options.warmupSeconds);
    await measureRounds(entries, options.rounds, sliceSeconds);
    const proxy = fronts.find((front) => front.id === 'proxy');
    findings = await proxyFindings(proxy.server.url);
  } finally {
    for (const front of fronts) await front.server.stop();
    await mock.stop();
  }
  const loadAfter = loadAverages();

  const byId = (id) => entries.find((e) => e.id === id);
  const results = entries.map((entry) => result(entry, byId(entry.directId), byId(entry.passThroughId)));
  for (const r of results) {
    console.log(
      `${r.label}: ${r.requestsPerSecond} req/s (rounds: ${r.sliceRequestsPerSecond.join(', ')}), p50 ${r.latencyP50Ms} ms, ` +
        `p99 ${r.latencyP99Ms} ms, non-2xx ${r.non2xx}, errors ${r.errors}, generator CPU ${Math.round(r.generatorCpu * 100)}%` +
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
  const judged = results.filter((r) => r.verdict !== undefined);
  for (const r of judged) {
    const figure =
      r.judges === 'latency'
        ? `adds ${r.addedP50Ms} ms at p50 (${formatSpread(r.roundAddedP50Ms, (x) => `${x} ms`)}) and ${r.addedP99Ms} ms at p99`
        : `at ${formatRatio(r.passThroughRatio)} the pass-through's rate (${formatSpread(r.roundPassThroughRatios)})`;
    console.log(`${r.verdict}: ${r.label} ${figure}; target ${target(r)}`);
  }
  const sentThroughProxy = results.filter((r) => r.front === 'proxy').reduce((sum, r) => sum + r.requests, 0);
  const allJudged = findings.waiting === 0 && findings.exchanges >= sentThroughProxy;
  console.log(
    `${findings.findings === 0 && allJudged ? 'PASS' : 'FAILED'}: the proxy judged ${findings.exchanges} exchanges ` +
      `(${findings.waiting} still waiting; the measured slices alone sent ${sentThroughProxy}) and reported ${findings.findings} findings`,
  );
  for (const each of findings.byRule) console.log(`  ${String(each.count).padStart(5)}  ${each.side} ${each.rule} «${each.sentence}»`);

  await writeResults(RESULTS_FILE, {
    loadGenerators: { fullSpeed: 'wrk', fixedRate: 'autocannon' },
    options,
    loadAverage: { before: loadBefore, after: loadAfter },
    busyMachine,
    targets: { addedP50Ms: ADDED_P50_TARGET_MS, atRate: FIXED_RATE, passThroughRatio: RATIO_TARGET },
    proxyFindings: findings,
    scenarios: results,
  });
  console.log(`\nResults written to ${RESULTS_FILE.pathname}`);
  const missed = judged.some((r) => r.verdict !== 'PASS');
  process.exitCode = missed || findings.findings > 0 || !allJudged || results.some(isBroken) ? 1 : 0;
}

main().catch((error) => {
  console.error(error.usage ? error.message : error);
  process.exitCode = 2;
});
