// `game-service fuzz` against a mock without a control API, as a CI user runs it against a deployment: codes read
// from the mock's log, one client per loopback source address. Sequences run in real time, so the rate measures
// how well the fuzzer keeps going on fresh addresses and players instead of waiting for windows to end.
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFuzz } from '../../dist/conformance/fuzz/run-fuzz.js';
import { formatOtpLine } from '../../dist/src/core/options.js';
import { startMock } from '../../dist/src/standalone/mock.js';

const GAME_ORIGIN = 'http://bench.game.test';

/** Fuzzes a `--no-control` mock for `seconds` from `sourceIps`: checked commands per second over the whole run, first wait included. */
export async function realTimeFuzzRate({ seconds, sourceIps, seed }) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-fuzz-real-time-'));
  const log = join(dir, 'mock.log');
  writeFileSync(log, '');
  const logger = {
    listening() {},
    request() {},
    stopping() {},
    error: (error) => console.error(error),
    otp: (delivery) => appendFileSync(log, `${formatOtpLine(delivery)}\n`),
  };
  const mock = await startMock({ port: 0, host: '127.0.0.1', gameOrigins: [GAME_ORIGIN], trustProxy: false, control: false, logger });
  const print = console.log;
  console.log = () => {};
  try {
    const result = await runFuzz({
      baseUrl: mock.url,
      otpSource: `log:${log}`,
      gameOrigin: GAME_ORIGIN,
      sourceIps,
      seed,
      numRuns: 1_000_000,
      maxDuration: seconds,
    });
    if (result.exitCode !== 0) throw new Error(`the real-time fuzzer answered ${result.exitCode}: ${result.error ?? result.failure?.report}`);
    return {
      seconds: result.durationMs / 1000,
      sequences: result.runs,
      commands: result.commands,
      limited: result.limited,
      rate: result.commands / (result.durationMs / 1000),
    };
  } finally {
    console.log = print;
    await mock.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
