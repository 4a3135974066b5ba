// CPU time per request of `service.handle` (and JSON.stringify of the answer) in process, without HTTP: the part
// of a request the mock's own code costs, read from process.cpuUsage, which moves less than a rate when other
// work shares the machine. On Redis, redis-server's CPU time per request is reported beside the mock's.
// With --profile, a CPU profile of more counted reads in memory prints the functions that take the most of it.
// Usage: node bench/handle-cost.js [--players n] [--rounds n] [--skip-redis] [--profile]
import { parseArgs } from 'node:util';
import { openStore } from '../dist/src/standalone/open-store.js';
import { createService } from '../dist/src/core/service.js';
import { profiled, selfTimeByFunction } from './lib/cpu-profile.js';
import { median } from './lib/median.js';
import { redisMissing, startRedisServer } from './lib/redis-process.js';
import { seededToken, seedPlayers } from './lib/seeded-players.js';

const GAME_ORIGIN = 'http://bench.game';
/** Requests in flight at once, as the throughput bench's connections. */
const CONCURRENCY = 50;
const REQUESTS_PER_ROUND = 20_000;
/** The read bucket's limit per player and minute: no player may be read more often in a run, or it answers 429. */
const READS_PER_PLAYER = 60;
/** Counted reads in memory run under the CPU profiler with --profile, and how many functions are shown. */
const PROFILED_REQUESTS = 100_000;
const PROFILE_LINES = 15;

const { values } = parseArgs({
  options: { players: { type: 'string' }, rounds: { type: 'string' }, 'skip-redis': { type: 'boolean' }, profile: { type: 'boolean' } },
});
const players = Number(values.players ?? 30_000);
const rounds = Number(values.rounds ?? 7);
if (!(players > 0 && rounds > 0)) {
  console.error('Usage: node bench/handle-cost.js [--players n] [--rounds n] [--skip-redis] [--profile]');
  process.exit(2);
}
// One unmeasured round first; memory and Redis each have their own buckets.
if ((rounds + 1) * REQUESTS_PER_ROUND + (values.profile ? PROFILED_REQUESTS : 0) > players * READS_PER_PLAYER) {
  console.error(
    `${rounds} rounds of ${REQUESTS_PER_ROUND} reads would read each of ${players} players more than ${READS_PER_PLAYER} times: fewer rounds, or more players`,
  );
  process.exit(2);
}

const request = (path, headers) => ({ method: 'GET', path, headers: { host: 'bench', ...headers }, ip: '127.0.0.1', peer: '127.0.0.1' });
const health = request('/health', { origin: GAME_ORIGIN });
const tokens = Array.from({ length: players }, (_, index) => `Bearer ${seededToken(index)}`);
let next = 0;
/** Players in turn, without an origin: each read counts the player's read bucket, as in the throughput bench. */
const countedRead = () => request('/api/player', { authorization: tokens[next++ % players] });

async function serveInTurn(service, makeRequest, count) {
  for (let index = 0; index < count; index++) {
    const answer = await service.handle(makeRequest());
    JSON.stringify(answer.body);
    if (answer.status !== 200) throw new Error(`answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  }
}

/** Median over the rounds (after one unmeasured) of the CPU time per request, in µs, of this process and of `helperMicros`. */
async function measure(service, makeRequest, helperMicros = () => 0) {
  const own = [];
  const helper = [];
  for (let round = 0; round <= rounds; round++) {
    const cpu = process.cpuUsage();
    const helperBefore = helperMicros();
    await Promise.all(Array.from({ length: CONCURRENCY }, () => serveInTurn(service, makeRequest, REQUESTS_PER_ROUND / CONCURRENCY)));
    const used = process.cpuUsage(cpu);
    if (round === 0) continue;
    own.push((used.user + used.system) / REQUESTS_PER_ROUND);
    helper.push((helperMicros() - helperBefore) / REQUESTS_PER_ROUND);
  }
  return { own: median(own), helper: median(helper) };
}

const format = (micros) => `${micros.toFixed(2)} µs`;

const memory = createService({ version: 'bench', gameOrigins: [GAME_ORIGIN], onOtp: () => {} });
await seedPlayers(memory, players);
console.log(`GET /health, in memory: ${format((await measure(memory, () => health)).own)}`);
console.log(`GET /api/player (${players} players, read bucket counted), in memory: ${format((await measure(memory, countedRead)).own)}`);
if (values.profile) {
  const profile = await profiled(() =>
    Promise.all(Array.from({ length: CONCURRENCY }, () => serveInTurn(memory, countedRead, PROFILED_REQUESTS / CONCURRENCY))),
  );
  const root = new URL('../dist/', import.meta.url).href;
  console.log(`Where those reads' CPU time goes (${PROFILED_REQUESTS} of them profiled; self time, bench's own loop included):`);
  for (const { name, share } of selfTimeByFunction(profile, root).slice(0, PROFILE_LINES)) console.log(`  ${(share * 100).toFixed(1).padStart(5)}%  ${name}`);
}

const missing = values['skip-redis'] ? 'skipped' : redisMissing();
if (missing !== undefined) {
  console.log(`On Redis: ${missing}`);
} else {
  const redis = await startRedisServer();
  const store = await openStore({ store: redis.url, storePrefix: 'bench:' }, { outboxSize: 1_000, journalSize: 500 });
  try {
    const service = createService({ version: 'bench', gameOrigins: [GAME_ORIGIN], storeEngine: store.engine, onRequest: store.onRequest, onOtp: () => {} });
    await store.started(service);
    await seedPlayers(service, players, async () => store.engine.afterRequest());
    const { own, helper } = await measure(service, countedRead, () => redis.cpuMicros());
    console.log(`GET /api/player (${players} players, read bucket counted), on Redis: ${format(own)}, and redis-server ${format(helper)}`);
  } finally {
    await store.close();
    await redis.stop();
  }
}
