import type { Parameters } from 'fast-check';

/** FC_SEED when set (to replay a run), else a new random seed. */
function seedFromEnvironment(): number {
  return process.env['FC_SEED'] === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(process.env['FC_SEED']);
}

/**
 * fast-check parameters with a seed that is always printed: FC_SEED (and FC_PATH) replay a run exactly;
 * a failure also prints its seed and shrunk path.
 */
export function propertyParameters<T>(name: string, numRuns = 200): Parameters<T> {
  const seed = seedFromEnvironment();
  const path = process.env['FC_PATH'];
  console.log(`[${name}] fast-check seed ${seed}: replay with FC_SEED=${seed}${path === undefined ? '' : ` FC_PATH=${path}`}`);
  return { seed, numRuns, ...(path === undefined ? {} : { path }) };
}

/** A seed for a fuzzer run in a test, printed so that a failure replays with FC_SEED. */
export function fuzzSeed(name: string): number {
  const seed = seedFromEnvironment();
  console.log(`[${name}] fuzz seed ${seed}: replay with FC_SEED=${seed}`);
  return seed;
}
