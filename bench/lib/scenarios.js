import { seededToken } from './seeded-players.js';
import { createPlayers } from './players.js';
import { redisMissing, startRedisServer } from './redis-process.js';

export const GAME_ORIGIN = 'http://bench.game';

/** Requests send the game origin, which exempts them from the public and read buckets. */
const fromGame = { origin: GAME_ORIGIN };
const TOKENS_WITH_ORIGIN = 8;
/** Players of the counted scenarios, seeded at start and read in turn. */
const COUNTED_PLAYERS = 30_000;
/** Below the read bucket's 60 per player and minute, for the odd extra request (the probe). */
const REQUESTS_PER_PLAYER = 50;

const health = () => ({ load: [{ method: 'GET', path: '/health', headers: fromGame }], probe: { path: '/health', headers: fromGame } });
const bearer = (token) => ({ authorization: `Bearer ${token}` });
const number = new Intl.NumberFormat('en-US');

/**
 * Reads without an origin, so that each counts the player's read bucket: one global round-robin across all
 * connections gives every player the same share. The whole run must stay below the bucket for each player;
 * the fastest warm-up so far (the baseline's, usually) bounds the rate, since a warm-up on a busy machine
 * can be far slower than the rounds that follow.
 */
function countedReads(_server, { warmups, options }) {
  const rate = Math.max(20_000, ...Object.values(warmups).map((w) => w.requestsPerSecond));
  const perPlayer = (rate * (options.warmupSeconds + options.durationSeconds)) / COUNTED_PLAYERS;
  if (perPlayer > REQUESTS_PER_PLAYER)
    return { skipped: `at ${rate} req/s each player would be read ${Math.ceil(perPlayer)} times (at most ${REQUESTS_PER_PLAYER})` };
  const load = Array.from({ length: COUNTED_PLAYERS }, (_, index) => ({ method: 'GET', path: '/api/player', headers: bearer(seededToken(index)) }));
  return { load, probe: { path: '/api/player', headers: load.at(-1).headers }, players: COUNTED_PLAYERS };
}

/**
 * Each scenario: which server it runs (with what it needs started first), how to prepare its requests (a list
 * sent in turn across all connections) and, for the mock, the share of the baseline's throughput it must reach.
 * `counted`: skipped by --skip-no-origin.
 */
export const SCENARIOS = [
  {
    id: 'baseline-health',
    label: 'raw node:http, GET /health (baseline)',
    server: 'baseline-server.js',
    args: [],
    sameBodyAsBaseline: true,
    prepare: health,
  },
  {
    id: 'mock-health',
    label: 'mock, GET /health',
    server: 'mock-server.js',
    args: [GAME_ORIGIN],
    target: 0.9,
    sameBodyAsBaseline: true,
    prepare: health,
  },
  {
    id: 'mock-player',
    label: `mock, GET /api/player (${TOKENS_WITH_ORIGIN} players, game origin)`,
    server: 'mock-server.js',
    args: [GAME_ORIGIN],
    target: 0.6,
    async prepare(server) {
      const tokens = await createPlayers(server, TOKENS_WITH_ORIGIN);
      const headers = tokens.map((token) => ({ ...fromGame, ...bearer(token) }));
      const load = headers.map((h) => ({ method: 'GET', path: '/api/player', headers: h }));
      return { load, probe: { path: '/api/player', headers: headers[0] }, players: tokens.length };
    },
  },
  {
    id: 'mock-player-no-origin',
    label: `mock, GET /api/player (${number.format(COUNTED_PLAYERS)} players, no origin, read bucket counted)`,
    server: 'mock-server.js',
    args: [GAME_ORIGIN, String(COUNTED_PLAYERS)],
    target: 0.85,
    counted: true,
    prepare: countedReads,
  },
  {
    id: 'replay-player',
    label: "raw node:http, the mock's answer to a counted read, replayed",
    server: 'replay-server.js',
    args: [],
    counted: true,
    /** The same requests as the counted reads; it has no players, and answers them all alike. */
    prepare(server, context) {
      const { players: _, ...prepared } = countedReads(server, context);
      return prepared;
    },
  },
  {
    id: 'floor-player',
    label: 'raw node:http, a counted read by hand (one token lookup, nothing else of the mock)',
    server: 'counted-floor-server.js',
    args: [String(COUNTED_PLAYERS)],
    counted: true,
    /** The counted read's floor: the same requests, answered with the work the spec asks of them and no more. */
    prepare: countedReads,
  },
  {
    id: 'redis-player-no-origin',
    label: `mock --store redis, GET /api/player (${number.format(COUNTED_PLAYERS)} players, no origin, read bucket counted)`,
    server: 'store-server.js',
    target: 0.4,
    counted: true,
    /** A redis-server of its own, whose CPU time counts with the mock's. */
    async needs() {
      const missing = redisMissing();
      if (missing !== undefined) return { skipped: missing };
      const redis = await startRedisServer();
      return {
        args: [GAME_ORIGIN, String(COUNTED_PLAYERS), 'redis', redis.url, 'bench:'],
        pid: redis.pid,
        cpuMicros: () => redis.cpuMicros(),
        release: () => redis.stop(),
      };
    },
    prepare: countedReads,
  },
];
