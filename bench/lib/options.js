import { parseArgs } from 'node:util';

const USAGE = `Usage: node bench/throughput.js [--duration s] [--rounds n] [--warmup s] [--connections n] [--skip-no-origin]
  --duration        seconds measured per scenario, in total      (env BENCH_DURATION, default 10)
  --rounds          slices the duration is cut into, interleaved (env BENCH_ROUNDS, default 10)
  --warmup          seconds of unmeasured load per scenario      (env BENCH_WARMUP, default 2)
  --connections     concurrent keep-alive connections            (env BENCH_CONNECTIONS, default 50)
  --skip-no-origin  skip /api/player without the game origin     (env BENCH_SKIP_NO_ORIGIN=1)`;

function usageError(message) {
  return Object.assign(new Error(`${message}\n${USAGE}`), { usage: true });
}

function positive(name, raw) {
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw usageError(`--${name} must be a positive number, got ${raw}`);
  return value;
}

/** Flags win over environment variables, which win over the defaults. */
export function benchOptions(argv = process.argv.slice(2), env = process.env) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        duration: { type: 'string' },
        rounds: { type: 'string' },
        warmup: { type: 'string' },
        connections: { type: 'string' },
        'skip-no-origin': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw usageError(error.message);
  }
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  return {
    durationSeconds: positive('duration', values.duration ?? env.BENCH_DURATION ?? 10),
    rounds: Math.round(positive('rounds', values.rounds ?? env.BENCH_ROUNDS ?? 10)),
    warmupSeconds: positive('warmup', values.warmup ?? env.BENCH_WARMUP ?? 2),
    connections: Math.round(positive('connections', values.connections ?? env.BENCH_CONNECTIONS ?? 50)),
    skipNoOrigin: values['skip-no-origin'] ?? env.BENCH_SKIP_NO_ORIGIN === '1',
  };
}
