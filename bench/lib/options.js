import { parseArgs } from 'node:util';

const SKIP_NO_ORIGIN = `
  --skip-no-origin  skip /api/player without the game origin     (env BENCH_SKIP_NO_ORIGIN=1)`;

const GENERATOR = `
  --generator       wrk (Debian's, pinned to its own core) or autocannon (env BENCH_GENERATOR, default wrk)`;

const GENERATORS = ['wrk', 'autocannon'];

const usage = ({
  script,
  connections,
  countedScenarios,
}) => `Usage: node bench/${script} [--duration s] [--rounds n] [--warmup s] [--connections n]${countedScenarios ? ' [--skip-no-origin] [--generator wrk|autocannon]' : ''}
  --duration        seconds measured per scenario, in total      (env BENCH_DURATION, default 10)
  --rounds          slices the duration is cut into, interleaved (env BENCH_ROUNDS, default 10)
  --warmup          seconds of unmeasured load per scenario      (env BENCH_WARMUP, default 2)
  --connections     concurrent keep-alive connections            (env BENCH_CONNECTIONS, default ${connections})${countedScenarios ? SKIP_NO_ORIGIN + GENERATOR : ''}`;

function usageError(message, defaults) {
  return Object.assign(new Error(`${message}\n${usage(defaults)}`), { usage: true });
}

function positive(name, raw, defaults) {
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw usageError(`--${name} must be a positive number, got ${raw}`, defaults);
  return value;
}

function generator(name, defaults) {
  if (!GENERATORS.includes(name)) throw usageError(`--generator must be ${GENERATORS.join(' or ')}, got ${name}`, defaults);
  return name;
}

/** `countedScenarios`: the bench has scenarios that --skip-no-origin leaves out, and a choice of load generator; `alwaysWrk`: wrk runs whatever is chosen. */
const THROUGHPUT_DEFAULTS = { script: 'throughput.js', connections: 50, countedScenarios: true };

/** Flags win over environment variables, which win over the defaults (`defaults`: the bench's script and connections). */
export function benchOptions(argv = process.argv.slice(2), env = process.env, defaults = THROUGHPUT_DEFAULTS) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        duration: { type: 'string' },
        rounds: { type: 'string' },
        warmup: { type: 'string' },
        connections: { type: 'string' },
        ...(defaults.countedScenarios ? { 'skip-no-origin': { type: 'boolean' }, generator: { type: 'string' } } : {}),
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw usageError(error.message, defaults);
  }
  if (values.help) {
    console.log(usage(defaults));
    process.exit(0);
  }
  const options = {
    durationSeconds: positive('duration', values.duration ?? env.BENCH_DURATION ?? 10, defaults),
    rounds: Math.round(positive('rounds', values.rounds ?? env.BENCH_ROUNDS ?? 10, defaults)),
    warmupSeconds: positive('warmup', values.warmup ?? env.BENCH_WARMUP ?? 2, defaults),
    connections: Math.round(positive('connections', values.connections ?? env.BENCH_CONNECTIONS ?? defaults.connections, defaults)),
    ...(defaults.countedScenarios
      ? {
          skipNoOrigin: values['skip-no-origin'] ?? env.BENCH_SKIP_NO_ORIGIN === '1',
          generator: generator(values.generator ?? env.BENCH_GENERATOR ?? 'wrk', defaults),
        }
      : {}),
  };
  if (defaults.alwaysWrk || options.generator === 'wrk') wholeSeconds(options, defaults);
  return options;
}

/** wrk runs for whole seconds: a slice (--duration / --rounds) or a warm-up of 0.6 s would stop it at once. */
function wholeSeconds({ durationSeconds, rounds, warmupSeconds }, defaults) {
  const slice = durationSeconds / rounds;
  if (!Number.isInteger(slice))
    throw usageError(
      `--duration ${durationSeconds} in ${rounds} rounds makes slices of ${slice} s; wrk runs whole seconds: give a multiple of --rounds`,
      defaults,
    );
  if (!Number.isInteger(warmupSeconds)) throw usageError(`--warmup ${warmupSeconds}: wrk runs whole seconds`, defaults);
}
