import { createPlayers } from './players.js';

export const GAME_ORIGIN = 'http://bench.game';

/** Requests send the game origin, which exempts them from the public and read buckets. */
const fromGame = { origin: GAME_ORIGIN };
const TOKENS_WITH_ORIGIN = 8;
/** Below the read bucket's 60 per player, for the odd extra request (the probe). */
const REQUESTS_PER_PLAYER = 50;
const MAX_PLAYERS = 50_000;

const health = () => ({ load: [{ method: 'GET', path: '/health', headers: fromGame }], probe: { path: '/health', headers: fromGame } });
const bearer = (token) => ({ authorization: `Bearer ${token}` });

/**
 * Each scenario: which server it runs, how to prepare its requests (autocannon's list, which every
 * connection cycles through) and, for the mock, the share of the baseline's throughput it must reach.
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
    target: 0.8,
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
    label: 'mock, GET /api/player (no origin, read bucket counted)',
    server: 'mock-server.js',
    args: [GAME_ORIGIN],
    optional: true,
    // Enough players that none exceeds its bucket: sized from the fastest warm-up so far (the baseline's,
    // usually), since a warm-up on a busy machine can be far slower than the rounds that follow.
    async prepare(server, { warmups, options }) {
      const rate = Math.max(20_000, ...Object.values(warmups).map((w) => w.requestsPerSecond));
      const expected = rate * (options.warmupSeconds + options.durationSeconds) * 1.25;
      const count = Math.ceil(expected / REQUESTS_PER_PLAYER);
      if (count > MAX_PLAYERS) return { skipped: `would need ${count} players (more than ${MAX_PLAYERS})` };
      const tokens = await createPlayers(server, count, { concurrency: 32 });
      // One global round-robin across all connections, so every player gets the same share.
      let next = 0;
      const setupRequest = (request) => {
        request.headers.authorization = `Bearer ${tokens[next++ % count]}`;
        return request;
      };
      const load = [{ method: 'GET', path: '/api/player', setupRequest }];
      return { load, probe: { path: '/api/player', headers: bearer(tokens[count - 1]) }, players: count };
    },
  },
];
