// Throughput of the mock against raw node:http, in one run, with one load generator (wrk by default).
// Each server runs in its own process, pinned to a core of its own, the generator to another, so that the server
// sets the pace: autocannon, the other choice, costs about what a server does and paces a counted read. The measured
// time is cut into rounds that visit every scenario in turn, so that whatever else the machine does
// falls on all scenarios alike instead of on whichever ran at the time.
import { availableParallelism, cpus } from 'node:os';
import { generateLoad } from './lib/generator.js';
import { aggregate, measureRounds } from './lib/measure.js';
import { benchOptions } from './lib/options.js';
import { formatRatio, formatSpread, isBroken, judge, markdownTable, writeResults } from './lib/report.js';
import { SCENARIOS } from './lib/scenarios.js';
import { startServer } from './lib/server-process.js';
import { benchCores, pinProcess, wrkMissing } from './lib/wrk.js';

const RESULTS_FILE = new URL('./results/throughput.json', import.meta.url);
/** CPU cores of other work (processes, or the kernel's loopback share) above which the figures are suspect. */
const BUSY_MACHINE_CORES = 0.4;
const COUNTED_READ_ID = 'mock-player-no-origin';
const FLOOR_ID = 'floor-player';

/** One plain request before the load: it must answer 200, and /health exactly as the baseline does. */
async function probe(url, { path, headers }, baseline) {
  const response = await fetch(url + path, { headers });
  const answer = { status: response.status, contentType: response.headers.get('content-type'), body: await response.text() };
  if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}: ${answer.body}`);
  if (baseline !== undefined && (answer.body !== baseline.body || answer.contentType !== baseline.contentType)) {
    throw new Error(`GET ${path} differs from the baseline: ${answer.contentType} ${answer.body} vs ${baseline.contentType} ${baseline.body}`);
  }
  return answer;
}

/** What a scenario's server needs running first (a redis-server), with how to count its CPU time and let it go. */
async function startNeeds(scenario) {
  return scenario.needs === undefined ? { args: scenario.args } : scenario.needs();
}

/** The server's CPU time with its helper's, so that a redis-server of the scenario's own is not counted as other work. */
function withHelperCpu(server, cpuMicros) {
  if (cpuMicros === undefined) return server;
  return {
    ...server,
    async cpu() {
      const own = await server.cpu();
      return { ...own, cpuMicros: own.cpuMicros + cpuMicros() };
    },
  };
}

/** Starts, prepares, checks and warms up one scenario's server; it stays up for all rounds. */
async function setUp(scenario, options, cores, running) {
  const needs = await startNeeds(scenario);
  if (needs.skipped) {
    console.log(`${scenario.label}: skipped, ${needs.skipped}`);
    return;
  }
  const server = await startServer(scenario.server, needs.args).catch(async (error) => {
    await needs.release?.();
    throw error;
  });
  const stop = async () => {
    await server.stop();
    await needs.release?.();
  };
  if (cores !== undefined) {
    pinProcess(server.pid, cores.server);
    if (needs.pid !== undefined) pinProcess(needs.pid, cores.helper);
  }
  const entry = { scenario, server: withHelperCpu(server, needs.cpuMicros), slices: [], stop };
  running.push(entry);
  const warmups = Object.fromEntries(running.filter((r) => r.warmup).map((r) => [r.scenario.id, r.warmup]));
  const prepared = await scenario.prepare(server, { warmups, options });
  if (prepared.skipped) {
    console.log(`${scenario.label}: skipped, ${prepared.skipped}`);
    running.splice(running.indexOf(entry), 1);
    await entry.stop();
    return;
  }
  entry.probe = await probe(server.url, prepared.probe, scenario.sameBodyAsBaseline ? running[0].probe : undefined);
  entry.load = {
    url: server.url,
    requests: prepared.load,
    connections: options.connections,
    generator: options.generator,
    core: cores?.generator,
    position: { next: 0 },
  };
  entry.players = prepared.players;
  if (prepared.players !== undefined) console.log(`${scenario.label}: ${prepared.players} players`);
  entry.warmup = await generateLoad(entry.load, options.warmupSeconds);
}

/** The mock's counted read against its floor (the same reads done by hand), round by round; undefined when either did not run. */
function countedReadVsFloor(results) {
  if (!results.some((r) => r.id === FLOOR_ID)) return undefined;
  return judge(results, FLOOR_ID).find((r) => r.id === COUNTED_READ_ID);
}

async function main() {
  const options = benchOptions();
  const missing = options.generator === 'wrk' ? wrkMissing() : undefined;
  if (missing !== undefined) throw Object.assign(new Error(`${missing}; or --generator autocannon`), { usage: true });
  const cores = options.generator === 'wrk' ? benchCores() : undefined;
  const sliceSeconds = options.durationSeconds / options.rounds;
  const pinned =
    cores === undefined ? 'unpinned' : `server on core ${cores.server}, ${options.generator} on core ${cores.generator}, redis-server on core ${cores.helper}`;
  console.log(
    `Node ${process.version}, ${availableParallelism()} CPUs (${cpus()[0]?.model.trim()}); ${options.generator}, ${options.connections} connections, ${pinned}; ` +
      `per scenario ${options.warmupSeconds} s warm-up, then ${options.rounds} rounds of ${sliceSeconds} s\n`,
  );
  const scenarios = SCENARIOS.filter((s) => !(s.counted && options.skipNoOrigin));
  const running = [];
  try {
    for (const scenario of scenarios) await setUp(scenario, options, cores, running);
    await measureRounds(running, options.rounds, sliceSeconds);
  } finally {
    await Promise.all(running.map((r) => r.stop()));
  }

  const results = running.map(({ scenario: { id, label, target }, players, slices }) => ({
    id,
    label,
    target,
    players,
    ...aggregate(slices),
  }));
  for (const r of results) {
    console.log(
      `${r.label}: ${r.requestsPerSecond} req/s (rounds: ${r.sliceRequestsPerSecond.join(', ')}), p99 ${r.latencyMs.p99} ms, ` +
        `non-2xx ${r.non2xx}, errors ${r.errors}, CPU server ${Math.round(r.serverCpu * 100)}% / generator ${Math.round(r.generatorCpu * 100)}%` +
        (r.otherCores === undefined ? '' : ` / other work ${r.otherCores} cores`),
    );
    if (isBroken(r)) console.warn(`  WARNING: failed requests ${JSON.stringify(r.statusCodes)}: this measurement is broken`);
  }

  const busiest = Math.max(...results.map((r) => r.otherCores ?? 0));
  const busyMachine = busiest > BUSY_MACHINE_CORES;
  if (busyMachine) {
    console.warn(`WARNING: other work used a median of up to ${busiest} cores while measuring: the ratios below are unreliable. Rerun on a quiet machine.`);
  }

  const judged = judge(results, 'baseline-health');
  console.log(`\n${markdownTable(judged)}\n`);
  for (const r of judged.filter((r) => r.verdict !== undefined)) {
    console.log(
      `${r.verdict}${r.broken ? ' (BROKEN MEASUREMENT)' : ''}: ${r.label} at ${formatRatio(r.ratio)} the baseline (${formatSpread(r.roundRatios)}; target ≥ ${r.target}×)`,
    );
  }
  const vsFloor = countedReadVsFloor(results);
  if (vsFloor !== undefined) {
    console.log(`The counted read at ${formatRatio(vsFloor.ratio)} its floor's rate (${formatSpread(vsFloor.roundRatios)})`);
  }
  await writeResults(RESULTS_FILE, {
    loadGenerator: options.generator,
    options,
    busyMachine,
    scenarios: judged,
    countedReadVsFloor: vsFloor === undefined ? undefined : { ratio: vsFloor.ratio, roundRatios: vsFloor.roundRatios },
  });
  console.log(`\nResults written to ${RESULTS_FILE.pathname}`);
  const failed = judged.some((r) => r.verdict === 'BELOW TARGET' || r.broken);
  process.exitCode = failed ? 1 : 0;
}

main().catch((error) => {
  console.error(error.usage ? error.message : error);
  process.exitCode = 2;
});
