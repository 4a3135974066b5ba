// Throughput of the mock on each store engine, as ratios to the in-memory mock in the same run: one process
// on memory (the baseline), on a state file, on Redis, and N processes on Redis (N = cores). Same load
// generator and interleaved rounds as bench/throughput.js; a redis-server of its own, persistence off.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoad, summarize } from './lib/load.js';
import { aggregate, measureRounds } from './lib/measure.js';
import { benchOptions } from './lib/options.js';
import { createPlayers } from './lib/players.js';
import { formatRatio, isBroken, judge, markdownTable, writeResults } from './lib/report.js';
import { redisMissing, startRedisServer } from './lib/redis-process.js';
import { GAME_ORIGIN } from './lib/scenarios.js';
import { startServer } from './lib/server-process.js';

const RESULTS_FILE = new URL('./results/stores.json', import.meta.url);
const PLAYERS = 8;
const WORKERS = availableParallelism();

function scenarios(stateFile, redisUrl) {
  return [
    { id: 'memory', label: '1 process, memory (baseline)', server: 'store-server.js', args: [GAME_ORIGIN, '0', 'memory'] },
    { id: 'state-file', label: '1 process, state file', server: 'store-server.js', args: [GAME_ORIGIN, '0', 'state', stateFile] },
    { id: 'redis', label: '1 process, Redis', server: 'store-server.js', args: [GAME_ORIGIN, '0', 'redis', redisUrl, 'one:'] },
    {
      id: 'redis-workers',
      label: `${WORKERS} processes (--workers), Redis`,
      server: 'cluster-server.js',
      args: [String(WORKERS), GAME_ORIGIN, '0', 'redis', redisUrl, 'many:'],
    },
  ];
}

/** GET /api/player of a few players with the game origin: each request reads its token and player from the store. */
async function prepare(server, options) {
  const tokens = await createPlayers(server, PLAYERS);
  const requests = tokens.map((token) => ({ method: 'GET', path: '/api/player', headers: { origin: GAME_ORIGIN, authorization: `Bearer ${token}` } }));
  const probe = await fetch(`${server.url}/api/player`, { headers: requests[0].headers });
  if (probe.status !== 200) throw new Error(`GET /api/player answered ${probe.status}: ${await probe.text()}`);
  return { url: server.url, requests, connections: options.connections };
}

async function main() {
  const options = benchOptions(process.argv.slice(2), process.env, { script: 'stores.js', connections: 50, countedScenarios: false });
  const sliceSeconds = options.durationSeconds / options.rounds;
  console.log(
    `Node ${process.version}, ${availableParallelism()} CPUs (${cpus()[0]?.model.trim()}); ${options.connections} connections; GET /api/player, ${PLAYERS} players, game origin\n`,
  );
  const missing = redisMissing();
  if (missing !== undefined) throw new Error(`${missing}: this bench compares the engines on Redis`);
  const dir = mkdtempSync(join(tmpdir(), 'game-service-bench-'));
  const redis = await startRedisServer();
  const running = [];
  try {
    for (const scenario of scenarios(join(dir, 'mock.db'), redis.url)) {
      const server = await startServer(scenario.server, scenario.args);
      const entry = { scenario, server, slices: [] };
      running.push(entry);
      entry.load = await prepare(server, options);
      summarize(await runLoad({ ...entry.load, durationSeconds: options.warmupSeconds }));
    }
    await measureRounds(running, options.rounds, sliceSeconds);
  } finally {
    await Promise.all(running.map((r) => r.server.stop()));
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const results = running.map(({ scenario: { id, label }, slices }) => ({ id, label, ...aggregate(slices) }));
  const judged = judge(results, 'memory');
  for (const r of judged) {
    console.log(
      `${r.label}: ${r.requestsPerSecond} req/s, p99 ${r.latencyMs.p99} ms, ${formatRatio(r.ratio)} memory (rounds ${r.roundRatios.map(formatRatio).join(' ')})`,
    );
    if (isBroken(r)) console.warn(`  WARNING: failed requests ${JSON.stringify(r.statusCodes)}: this measurement is broken`);
  }
  console.log(`\n${markdownTable(judged).replaceAll('vs baseline', 'vs memory')}\n`);
  await writeResults(RESULTS_FILE, {
    options,
    workers: WORKERS,
    scenarios: judged,
  });
  console.log(`Results written to ${RESULTS_FILE.pathname}`);
  process.exitCode = judged.some((r) => r.broken) ? 1 : 0;
}

main().catch((error) => {
  console.error(error.usage ? error.message : error);
  process.exitCode = 2;
});
