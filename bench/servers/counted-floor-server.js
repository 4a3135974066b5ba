// The counted read's floor: raw node:http doing by hand only what a counted GET /api/player must (the bearer token
// looked up among the same players, its expiry checked, the player's read bucket counted, the points brought up to
// now by the mock's own rule, the player's JSON and the bucket's headers written), in one record a token, with
// nothing the mock does besides (no journal, control API, CORS, variants, faults or store engine).
// Usage: counted-floor-server.js <players>
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { refill } from '../../dist/src/core/action-points.js';
import { DEFAULT_ACTION_POINTS } from '../../dist/src/core/options.js';
import { RATE_LIMIT_WINDOW_MS, RATE_LIMITS, TOKEN_LIFETIME_MS } from '../../dist/src/spec/limits.js';
import { seededToken } from '../lib/seeded-players.js';
import { serveForBench } from './serve-for-bench.js';

const [players = '0'] = process.argv.slice(2);
const READS_PER_WINDOW = RATE_LIMITS.read.limit;
const BEARER = 'Bearer ';

const start = Date.now();
const createdAt = new Date(start).toISOString();
/** Each token straight to its player, whose bucket and points sit in the player's own record. */
const tokens = new Map();
for (let index = 0; index < Number(players); index++) {
  const player = {
    id: randomUUID(),
    email: `seeded-${index}@example.com`,
    emailVerified: true,
    createdAt,
    actionPoints: { points: DEFAULT_ACTION_POINTS.start, accruedAt: start },
    ship: null,
    windowStart: start,
    reads: 0,
  };
  tokens.set(seededToken(index), { player, expiresAt: start + TOKEN_LIFETIME_MS });
}

const server = createServer((request, response) => {
  const authorization = request.headers.authorization ?? '';
  const token = request.url === '/api/player' && authorization.startsWith(BEARER) ? tokens.get(authorization.slice(BEARER.length).toLowerCase()) : undefined;
  const now = Date.now();
  if (token === undefined || now >= token.expiresAt) {
    response.writeHead(401).end();
    return;
  }
  const { player } = token;
  if (now - player.windowStart >= RATE_LIMIT_WINDOW_MS) {
    player.windowStart = now;
    player.reads = 0;
  }
  if (player.reads === READS_PER_WINDOW) {
    response.writeHead(429).end();
    return;
  }
  player.reads++;
  refill(player.actionPoints, DEFAULT_ACTION_POINTS, now);
  const { id, email, emailVerified, createdAt, actionPoints, ship } = player;
  const json = JSON.stringify({
    success: true,
    player: { id, email, emailVerified, createdAt, actionPoints: actionPoints.points, maxActionPoints: DEFAULT_ACTION_POINTS.max, ship },
  });
  response
    .writeHead(200, [
      'vary',
      'Origin',
      'x-ratelimit-limit',
      String(READS_PER_WINDOW),
      'x-ratelimit-remaining',
      String(READS_PER_WINDOW - player.reads),
      'x-ratelimit-reset',
      String(Math.ceil((player.windowStart + RATE_LIMIT_WINDOW_MS) / 1000)),
      'content-type',
      'application/json; charset=utf-8',
      'content-length',
      Buffer.byteLength(json),
    ])
    .end(json);
});
serveForBench(server);
