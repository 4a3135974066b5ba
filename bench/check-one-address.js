// A full `game-service check` from one client address against a real-time target (a mock started with
// --no-control, codes read from its log), as a CI job without spare addresses runs it: every registration and
// verification then waits for that address's auth budget (5 a minute). Reports the run's own plan beside what it
// sent and how long it took; the target is at most 6 minutes. It waits for real, so it is no part of `npm test`.
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeResults } from './lib/report.js';

const RESULTS_FILE = new URL('./results/check-one-address.json', import.meta.url);
const TARGET_MS = 6 * 60_000;
const BIN = new URL('../bin/game-service.js', import.meta.url).pathname;
const GAME_ORIGIN = 'http://bench.game.test';
const SEED = Number(process.env.BENCH_SEED ?? 13);

/** Starts the mock without a control API on a free port; resolves with its URL once its banner names it. */
function startMock(logFile) {
  const child = spawn(process.execPath, [BIN, 'mock', '--no-control', '--port', '0', '--game-origin', GAME_ORIGIN], {
    stdio: ['ignore', openSync(logFile, 'w'), 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const url = /listening on (http:\/\/\S+)/.exec(readFileSync(logFile, 'utf8'))?.[1];
      if (url !== undefined) {
        clearInterval(timer);
        resolve({ url, stop: () => child.kill('SIGTERM') });
      }
    }, 100);
    child.once('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`the mock exited before listening (code ${code})`));
    });
  });
}

/** Runs the check from one address, echoing its output; resolves with the exit code and what it printed. */
function runCheck(url, logFile) {
  const args = [BIN, 'check', '--base-url', url, '--otp-source', `log:${logFile}`, '--game-origin', GAME_ORIGIN, '--seed', String(SEED)];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
    process.stdout.write(chunk);
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ exitCode: code, output })));
}

async function main() {
  const directory = mkdtempSync(join(tmpdir(), 'check-one-address-'));
  const logFile = join(directory, 'mock.log');
  const mock = await startMock(logFile);
  const started = Date.now();
  let run;
  try {
    run = await runCheck(mock.url, logFile);
  } finally {
    mock.stop();
  }
  const durationMs = Date.now() - started;
  rmSync(directory, { recursive: true, force: true });
  const plan = /Auth plan \(.*?\): (\d+) requests:[\s\S]*?(\d+) windows: expect about (\d+) min (\d+) s/.exec(run.output);
  const account = /Auth requests sent: (\d+)/.exec(run.output);
  const counts = /(\d+) passed, (\d+) failed, (\d+) skipped/.exec(run.output);
  if (plan === null || account === null || counts === null) throw new Error('the run printed no auth plan, account or summary');
  const summary = {
    exitCode: run.exitCode,
    passed: Number(counts[1]),
    failed: Number(counts[2]),
    skipped: Number(counts[3]),
    plannedAuthRequests: Number(plan[1]),
    sentAuthRequests: Number(account[1]),
    plannedWindows: Number(plan[2]),
    plannedMs: (Number(plan[3]) * 60 + Number(plan[4])) * 1000,
    durationMs,
    targetMs: TARGET_MS,
  };
  const met = run.exitCode === 0 && summary.sentAuthRequests <= summary.plannedAuthRequests && durationMs <= TARGET_MS;
  console.log(
    `\none address: ${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped; ${summary.sentAuthRequests} auth requests ` +
      `(plan ${summary.plannedAuthRequests}, ${summary.plannedWindows} windows); ${(durationMs / 1000).toFixed(0)} s ` +
      `(plan about ${summary.plannedMs / 1000} s); target ≤ ${TARGET_MS / 1000} s, all passing, plan kept: ${met ? 'met' : 'MISSED'}`,
  );
  await writeResults(RESULTS_FILE, summary);
  if (!met) process.exitCode = 1;
}

await main();
