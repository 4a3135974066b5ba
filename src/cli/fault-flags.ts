import { ApiError } from '../core/errors.js';
import { faultRuleFrom, faultRuleFromText } from '../core/fault-rules.js';
import { MAX_FAULT_SEED, type FaultRule } from '../core/faults.js';
import { CliError } from './cli-error.js';
import type { MockConfig } from './config-schema.js';
import { parseList } from './flag-values.js';

/** A rule's 400 as the usage or config error that names where the rule was written. */
function asCliError(error: unknown, code: 'GS_USAGE' | 'GS_CONFIG'): unknown {
  return error instanceof ApiError ? new CliError(code, error.message) : error;
}

/** `--fault TEXT`, repeatable (or comma-separated in GAME_SERVICE_FAULT): each checked before the server starts. */
export function parseFaultFlags(values: unknown): FaultRule[] {
  return parseList(values).map((text) => {
    try {
      return faultRuleFromText(text, `--fault ${JSON.stringify(text)}`);
    } catch (error) {
      throw asCliError(error, 'GS_USAGE');
    }
  });
}

/** `--fault-seed N`: the seed of the fault draws, to replay a run. */
export function parseFaultSeed(value: unknown): number {
  const seed = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  if (!Number.isInteger(seed) || seed < 0 || seed > MAX_FAULT_SEED) {
    throw new CliError('GS_USAGE', `--fault-seed ${JSON.stringify(value)} is not a seed; expected an integer from 0 to ${MAX_FAULT_SEED}`);
  }
  return seed;
}

/** The config file's `faults`, texts or JSON rules, each error naming its JSON path. */
export function configFaults(path: string, config: MockConfig): FaultRule[] | undefined {
  return config.faults?.map((rule, index) => {
    try {
      return faultRuleFrom(rule, `--config ${path}: /faults/${index}`);
    } catch (error) {
      throw asCliError(error, 'GS_CONFIG');
    }
  });
}
