// Model commands per second of `game-service fuzz` against the mock with clock control, beside a baseline
// measured in the same run: plain sequential requests (GET /health, one connection) to the same mock. The
// fuzzer sends one request at a time too, so the ratio shows what the model, the judging and fast-check cost.
// Rounds alternate baseline and fuzzer, so that whatever else the machine does falls on both alike.
// Then the real-time rate: the fuzzer against a mock without a control API, from many loopback addresses, for
// minutes, where what counts is how rarely it has to wait for rate-limit windows to end.
import { availableParallelism, cpus } from 'node:os';
import { Agent, request } from 'undici';
import { runFuzz } from '../dist/conformance/fuzz/run-fuzz.js';
import { startMock } from '../dist/src/standalone/mock.js';
import { median } from './lib/median.js';
import { realTimeFuzzRate } from './lib/real-time-fuzz.js';
import { writeResults } from './lib/report.js';

const RESULTS_FILE = new URL('./results/fuzz-rate.json', import.meta.url);
const TARGET_COMMANDS_PER_SECOND = 500;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SLICE_SECONDS = Number(process.env.BENCH_SLICE_SECONDS ?? 3);
const GAME_ORIGIN = 'http://bench.game.test';
const TARGET_REAL_TIME_COMMANDS_PER_SECOND = 5;
const REAL_TIME_SECONDS = Number(process.env.BENCH_REAL_TIME_SECONDS ?? 180);
const REAL_TIME_SOURCE_IPS = process.env.BENCH_SOURCE_IPS ?? '127.0.0.2-127.0.0.250';

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
    const result = await runFuzz({ baseUrl: url, forwardedFor: true, seed, numRuns: 1_000_000, maxDuration: seconds });
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
  console.log(
    `\nmedian: baseline ${summary.baselineRequestsPerSecond} sequential req/s; fuzzer ${summary.fuzzCommandsPerSecond} commands/s ` +
      `(${summary.ratio}× the baseline); target ≥ ${TARGET_COMMANDS_PER_SECOND} commands/s: ${summary.fuzzCommandsPerSecond >= TARGET_COMMANDS_PER_SECOND ? 'met' : 'MISSED'}`,
  );

  console.log(
    `\nreal time: fuzzing a mock without a control API for ${REAL_TIME_SECONDS} s from --source-ips ${REAL_TIME_SOURCE_IPS} (codes read from its log)…`,
  );
  const realTime = await realTimeFuzzRate({ seconds: REAL_TIME_SECONDS, sourceIps: REAL_TIME_SOURCE_IPS, seed: 1 });
  const realTimeMet = realTime.rate >= TARGET_REAL_TIME_COMMANDS_PER_SECOND;
  console.log(
    `real time: ${realTime.commands} checked commands in ${realTime.sequences} sequences over ${realTime.seconds.toFixed(1)} s (${realTime.limited} answered 429): ` +
      `${realTime.rate.toFixed(1)} commands/s, beside ${summary.fuzzCommandsPerSecond} with clock control; target ≥ ${TARGET_REAL_TIME_COMMANDS_PER_SECOND} commands/s: ${realTimeMet ? 'met' : 'MISSED'}`,
  );
  const passed = summary.fuzzCommandsPerSecond >= TARGET_COMMANDS_PER_SECOND && realTimeMet;
  await writeResults(RESULTS_FILE, {
    rounds,
    summary: { ...summary, realTimeCommandsPerSecond: Number(realTime.rate.toFixed(1)), targetRealTimeCommandsPerSecond: TARGET_REAL_TIME_COMMANDS_PER_SECOND },
    realTime: { ...realTime, sourceIps: REAL_TIME_SOURCE_IPS },
    passed,
  });
  process.exitCode = passed ? 0 : 1;
}

await main();
