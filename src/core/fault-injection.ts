import { ApiError } from './errors.js';
import { faultRuleFrom } from './fault-rules.js';
import { FaultInjector, MAX_FAULT_SEED, randomSeed, type FaultsMet } from './faults.js';
import { OptionsError, type ServiceOptions } from './options.js';

/** The injector of the service's `faults` and `faultSeed` options; an OptionsError naming the bad one. */
export function createFaultInjector(options: Pick<ServiceOptions, 'faults' | 'faultSeed'>): FaultInjector {
  const seed = options.faultSeed ?? randomSeed();
  if (!Number.isInteger(seed) || seed < 0 || seed > MAX_FAULT_SEED)
    throw new OptionsError(`faultSeed must be an integer from 0 to ${MAX_FAULT_SEED}, not ${seed}`);
  try {
    return new FaultInjector(
      (options.faults ?? []).map((rule, index) => faultRuleFrom(rule, `faults[${index}]`)),
      seed,
    );
  } catch (error) {
    throw error instanceof ApiError ? new OptionsError(error.message) : error;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The latency a request met: real time, whatever the virtual clock, before anything of it runs. */
export function waitForLatency(met: FaultsMet): Promise<unknown> {
  return sleep(met.latencyMs);
}

/**
 * The mark a host reads to cut the connection instead of answering (reset) or halfway through (truncate): the
 * request has had its effects, and the client cannot tell whether it did.
 */
export function cutOf(met: FaultsMet | undefined): 'reset' | 'truncate' | undefined {
  if (met?.reset === true) return 'reset';
  return met?.truncate === true ? 'truncate' : undefined;
}
