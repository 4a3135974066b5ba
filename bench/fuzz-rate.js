// Model commands per second of `game-service fuzz` against the mock with clock control, beside a baseline
// measured in the same run: plain sequential requests (GET /health, one connection) to the same mock. The
// fuzzer sends one request at a time too, so the ratio shows what the model, the judging and fast-check cost.
// Rounds alternate baseline and fuzzer, so that whatever else the machine does falls on both alike.
import { availableParallelism, cpus } from 'node:os';
import { Agent, request } from 'undici';
import { runFuzz } from '../dist/conformance/fuzz/run-fuzz.js';
import { startMock } from '../dist/src/cli/mock.js';
import { median } from './lib/median.js';
import { writeResults } from './lib/report.js';

const RESULTS_FILE = new URL('./results/fuzz-rate.json', import.meta.url);
const TARGET_COMMANDS_PER_SECOND = 500;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SLICE_SECONDS = Number(process.env.BENCH_SLICE_SECONDS ?? 3);
const GAME_ORIGIN = 'http://bench.game.test';

const quiet = { listening() {}, otp() {}, request() {}, error: (error) => console.error(error), stopping() {} };

/** Sequential GET /health for `seconds`: requests per second. */
async function baselineSlice(url, seconds) {
  const agent = new Agent({ keepAliveTimeout: 10_000 });
  const until = Date.now() + seconds * 1000;
  let count = 0;
  const started = performance.now();
  while (Date.now() < until) {
    const response = await request(`${url}/health`, { dispatcher: agent, headers: { origin: GAME_ORIGIN } });
    await response.body.dump();
    count++;
  }
  const rate = count / ((performance.now() - started) / 1000);
  await agent.close();
  return rate;
}

/** The fuzzer, bounded by time rather than runs: commands per second. */
async function fuzzSlice(url, seconds, seed) {
  const log = console.log;
  console.log = () => {};
  try {
    const result = await runFuzz({ baseUrl: url, forwardedFor: true, seed, numRuns: 1_000_000, maxDurationSeconds: seconds });
    if (result.exitCode !== 0) throw new Error(`the fuzzer answered ${result.exitCode}: ${result.error ?? result.failure?.report}`);
    return { rate: result.commands / (result.durationMs / 1000), commands: result.commands, requests: result.requests };
  } finally {
    console.log = log;
  }
}

async function main() {
  console.log(`Node ${process.version}, ${availableParallelism()} CPUs (${cpus()[0]?.model.trim()}); ${ROUNDS} rounds of ${SLICE_SECONDS} s each\n`);
  const mock = await startMock({ port: 0, host: '127.0.0.1', gameOrigins: [GAME_ORIGIN], trustProxy: true, logger: quiet });
  const rounds = [];
  try {
    await baselineSlice(mock.url, 1);
    for (let round = 0; round < ROUNDS; round++) {
      const baseline = await baselineSlice(mock.url, SLICE_SECONDS);
      const fuzz = await fuzzSlice(mock.url, SLICE_SECONDS, round + 1);
      rounds.push({ baseline, fuzz: fuzz.rate, ratio: fuzz.rate / baseline, requestsPerCommand: fuzz.requests / fuzz.commands });
      console.log(`round ${round + 1}: baseline ${Math.round(baseline)} req/s, fuzzer ${Math.round(fuzz.rate)} commands/s (${fuzz.commands} commands)`);
    }
  } finally {
    await mock.close();
  }
  const summary = {
    baselineRequestsPerSecond: Math.round(median(rounds.map((r) => r.baseline))),
    fuzzCommandsPerSecond: Math.round(median(rounds.map((r) => r.fuzz))),
    ratio: Number(median(rounds.map((r) => r.ratio)).toFixed(2)),
    targetCommandsPerSecond: TARGET_COMMANDS_PER_SECOND,
  };
  const passed = summary.fuzzCommandsPerSecond >= TARGET_COMMANDS_PER_SECOND;
  console.log(
    `\nmedian: baseline ${summary.baselineRequestsPerSecond} sequential req/s; fuzzer ${summary.fuzzCommandsPerSecond} commands/s ` +
      `(${summary.ratio}× the baseline); target ≥ ${TARGET_COMMANDS_PER_SECOND} commands/s: ${passed ? 'met' : 'MISSED'}`,
  );
  await writeResults(RESULTS_FILE, { node: process.version, rounds, summary, passed });
  process.exitCode = passed ? 0 : 1;
}

await main();
