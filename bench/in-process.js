// What a request costs inside the process, without HTTP: `service.handle` and `JSON.stringify` of its answer, per
// request, for GET /health and a counted GET /api/player over 1,000 and 30,000 seeded players (read in turn, without
// an origin, so that each request counts its player's read bucket). The rest of a request's server time in
// `npm run bench` is node:http's and the garbage collector's. Reports only; no target. Run by `npm run bench:in-process`.
import { createService } from '../dist/src/core/service.js';
import { PACKAGE_VERSION } from '../dist/src/version.js';
import { seededToken, seedPlayers } from './lib/seeded-players.js';

const REQUESTS = 200_000;
const ROUNDS = 5;

/**
 * Microseconds of CPU a request (CPU time, not wall time, so that other work on the machine counts little), the
 * median of the rounds, for `request(index)` handled and its answer serialised. Every
 * `readsPerWindow` requests the clock moves on a minute, so that a counted bucket is never spent (its 429 would be
 * cheaper); any answer but a 200 stops the bench.
 */
async function microsecondsPerRequest(service, request, readsPerWindow = Number.POSITIVE_INFINITY) {
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = process.cpuUsage();
    for (let index = 0; index < REQUESTS; index++) {
      const answer = await service.handle(request(index));
      JSON.stringify(answer.body);
      if (answer.status !== 200) throw new Error(`request ${index} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      if ((index + 1) % readsPerWindow === 0) service.clock.advance(60_000);
    }
    const { user, system } = process.cpuUsage(started);
    rounds.push((user + system) / REQUESTS);
    service.clock.advance(60_000);
  }
  return rounds.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)];
}

const health = () => ({ method: 'GET', path: '/health', headers: {}, ip: '127.0.0.1' });
const counted = (players) => (index) => ({
  method: 'GET',
  path: '/api/player',
  headers: { authorization: `Bearer ${seededToken(index % players)}` },
  ip: '127.0.0.1',
});

const rows = [];
// /health counts in the public bucket of its IP address: 50 requests a window, below its 60.
rows.push(['GET /health', await microsecondsPerRequest(createService({ version: PACKAGE_VERSION }), health, 50)]);
for (const players of [1_000, 30_000]) {
  const service = createService({ version: PACKAGE_VERSION });
  await seedPlayers(service, players);
  // 50 reads of each player a window, below the read bucket's 60.
  const name = `GET /api/player, counted, ${players.toLocaleString('en-US')} players`;
  rows.push([name, await microsecondsPerRequest(service, counted(players), players * 50)]);
}
for (const [name, micros] of rows) console.log(`${name.padEnd(40)} ${micros.toFixed(1)} µs of CPU a request`);
