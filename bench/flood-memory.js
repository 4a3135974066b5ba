// A flood of distinct client addresses within one rate-limit window, against the mock with --trust-proxy
// and a frozen clock, in its own process: its peak memory (bound: 300 MB RSS for 1,000,000 addresses),
// whether a spent bucket was given back (never), and how fast the control listings answer on that state
// (bound: 50 ms each). Hostile 14 KB X-Forwarded-For values are mixed in.
import { availableParallelism, cpus } from 'node:os';
import { Pool } from 'undici';
import { CONTROL_ROUTES } from '../dist/src/spec/control-routes.js';
import { writeResults } from './lib/report.js';
import { startServer } from './lib/server-process.js';

const RESULTS_FILE = new URL('./results/flood-memory.json', import.meta.url);
const ADDRESSES = Number(process.env.BENCH_ADDRESSES ?? 1_000_000);
const HOSTILE_EVERY = 50;
const RSS_BOUND_BYTES = 300 * 1024 * 1024;
const LISTING_BOUND_MS = 50;
const LISTING_CALLS = 20;
const CONNECTIONS = 32;
const SPENDER_IP = '198.51.100.1';
const READER_IP = '198.51.100.2';

const MB = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const addressOf = (index) => `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;

async function send(pool, path, { method = 'GET', headers = {}, json } = {}) {
  const response = await pool.request({
    method,
    path,
    headers: json === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  const text = await response.body.text();
  return { status: response.statusCode, body: text === '' ? undefined : JSON.parse(text) };
}

/** Spends the auth bucket of one address and the read bucket of one player: both must stay spent. */
async function spendBuckets(pool) {
  const register = () =>
    send(pool, '/api/auth/register', { method: 'POST', headers: { 'x-forwarded-for': SPENDER_IP }, json: { email: 'spender@example.com' } });
  for (let i = 0; i < 5; i++) await register();
  const { authToken } = (await send(pool, CONTROL_ROUTES.createPlayer.pattern, { method: 'POST', json: { email: 'reader@example.com' } })).body;
  const read = () => send(pool, '/api/player', { headers: { authorization: `Bearer ${authToken}`, 'x-forwarded-for': READER_IP } });
  for (let i = 0; i < 60; i++) await read();
  const spent = async () => ({ auth: (await register()).status, read: (await read()).status });
  const before = await spent();
  if (before.auth !== 429 || before.read !== 429) throw new Error(`the buckets are not spent before the flood: ${JSON.stringify(before)}`);
  return spent;
}

/** One GET /health per address, from CONNECTIONS concurrent clients, every HOSTILE_EVERY-th with a 14 KB junk hop too. */
async function flood(pool) {
  const statuses = {};
  let next = 0;
  let hostile = 0;
  const junk = 'x'.repeat(14_000);
  const worker = async () => {
    while (next < ADDRESSES) {
      const index = next++;
      if (index % HOSTILE_EVERY === 0) {
        hostile++;
        await send(pool, '/health', { headers: { 'x-forwarded-for': `${junk}${index}` } });
      }
      const { status } = await send(pool, '/health', { headers: { 'x-forwarded-for': addressOf(index) } });
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (index % 100_000 === 0) process.stderr.write(`  ${index.toLocaleString('en')} addresses\n`);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS * 2 }, worker));
  return { statuses, hostile, seconds: (performance.now() - started) / 1000 };
}

const BUCKETS = CONTROL_ROUTES.buckets.pattern;
const JOURNAL = CONTROL_ROUTES.journal.pattern;
const LISTINGS = [
  BUCKETS,
  `${BUCKETS}?limit=1000`,
  `${BUCKETS}?category=auth`,
  `${BUCKETS}?key=${SPENDER_IP}`,
  `${BUCKETS}?cursor=${Math.floor(ADDRESSES / 2)}&limit=1000`,
  CONTROL_ROUTES.players.pattern,
  CONTROL_ROUTES.outbox.pattern,
  `${JOURNAL}?limit=1000`,
  `${JOURNAL}?path=/api/auth/register`,
];

async function listingLatencies(pool) {
  const results = [];
  for (const path of LISTINGS) {
    const times = [];
    for (let i = 0; i < LISTING_CALLS; i++) {
      const started = performance.now();
      const { status } = await send(pool, path);
      times.push(performance.now() - started);
      if (status !== 200) throw new Error(`GET ${path} answered ${status}`);
    }
    times.sort((a, b) => a - b);
    results.push({ path, medianMs: +times[Math.floor(times.length / 2)].toFixed(2), maxMs: +times.at(-1).toFixed(2) });
  }
  return results;
}

async function main() {
  console.log(
    `Node ${process.version}, ${availableParallelism()} CPUs (${cpus()[0]?.model.trim()}); ${ADDRESSES.toLocaleString('en')} addresses in one window\n`,
  );
  const server = await startServer('flood-server.js');
  const pool = new Pool(server.url, { connections: CONNECTIONS });
  try {
    const idle = await server.memory();
    const spent = await spendBuckets(pool);
    const flooded = await flood(pool);
    const memory = await server.memory();
    const after = await spent();
    const listings = await listingLatencies(pool);

    const admitted = flooded.statuses[200] ?? 0;
    const kept = after.auth === 429 && after.read === 429;
    const slowest = Math.max(...listings.map((listing) => listing.maxMs));
    console.log(
      `Flood: ${ADDRESSES.toLocaleString('en')} addresses (+${flooded.hostile.toLocaleString('en')} with a 14 KB junk hop) in ${flooded.seconds.toFixed(0)} s; statuses ${JSON.stringify(flooded.statuses)}`,
    );
    console.log(`RSS: ${MB(idle.rss)} idle, ${MB(memory.rss)} after the flood, peak ${MB(memory.maxRss)} (bound ${MB(RSS_BOUND_BYTES)})`);
    console.log(`Spent buckets after the flood: auth ${after.auth}, read ${after.read} (both must stay 429)`);
    console.log('\n| Listing | median (ms) | max (ms) |\n| --- | ---: | ---: |');
    for (const listing of listings) console.log(`| GET ${listing.path} | ${listing.medianMs} | ${listing.maxMs} |`);

    const verdicts = [
      [memory.maxRss < RSS_BOUND_BYTES, `peak RSS ${MB(memory.maxRss)} < ${MB(RSS_BOUND_BYTES)}`],
      [admitted === ADDRESSES, `every address counted: ${admitted.toLocaleString('en')} of ${ADDRESSES.toLocaleString('en')} answered 200`],
      [kept, 'no spent bucket given back'],
      [slowest < LISTING_BOUND_MS, `every listing within ${LISTING_BOUND_MS} ms (slowest ${slowest} ms)`],
    ];
    console.log('');
    for (const [ok, text] of verdicts) console.log(`${ok ? 'OK' : 'FAILED'}: ${text}`);
    await writeResults(RESULTS_FILE, {
      addresses: ADDRESSES,
      hostileRequests: flooded.hostile,
      statuses: flooded.statuses,
      rssBytes: { idle: idle.rss, afterFlood: memory.rss, peak: memory.maxRss, bound: RSS_BOUND_BYTES },
      spentAfterFlood: after,
      listings,
    });
    process.exitCode = verdicts.every(([ok]) => ok) ? 0 : 1;
  } finally {
    await pool.close();
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 2;
});
