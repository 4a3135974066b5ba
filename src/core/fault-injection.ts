import { ApiError } from './errors.js';
import { faultRuleFrom } from './fault-rules.js';
import { FaultInjector, MAX_FAULT_SEED, type FaultsMet } from './faults.js';
import type { ServiceResponse } from './http.js';
import { OptionsError, type ServiceOptions } from './options.js';

/** A seed when none is given, from Web Crypto (in Node and browsers alike); reported so that a run can be replayed. */
export function randomFaultSeed(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0]!;
}

/** The injector of the service's `faults` and `faultSeed` options; an OptionsError naming the bad one. */
export function createFaultInjector(options: Pick<ServiceOptions, 'faults' | 'faultSeed'>): FaultInjector {
  const seed = options.faultSeed ?? randomFaultSeed();
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

/**
 * The answer of a request that met faults: the latency first (real time, whatever the virtual clock), then
 * the answer (`answer` throws the injected status itself, before routing), then the mark a host reads to
 * cut the connection: the request has had its effects, and the client cannot tell whether it did.
 */
export async function answerWithFaults(met: FaultsMet, answer: () => Promise<ServiceResponse>): Promise<ServiceResponse> {
  if (met.latencyMs > 0) await sleep(met.latencyMs);
  const response = await answer();
  if (met.reset) response.cut = 'reset';
  else if (met.truncate) response.cut = 'truncate';
  return response;
}
