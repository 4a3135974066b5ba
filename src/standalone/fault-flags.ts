import { ApiError } from '../core/errors.js';
import { faultRuleFrom, type FaultRuleJson } from '../core/fault-rules.js';
import { MAX_FAULT_SEED, type FaultRule } from '../core/faults.js';
import { CliError } from './cli-error.js';
import { flagNumber, parseList } from './flag-values.js';
import { ProblemList } from './problems.js';

/**
 * A probability written out of range, said as it was written (`150% is above 100%`) rather than as the rule's
 * JSON form would (`/probability must be <= 1`); undefined when in range, or not a number (the form says so).
 */
function probabilityOutOfRange(text: string): string | undefined {
  const written = /@(\S+)$/.exec(text.trim())?.[1];
  if (written === undefined) return undefined;
  const percent = written.endsWith('%');
  const value = Number(percent ? written.slice(0, -1) : written);
  const forms = '(a fraction such as 0.2, or a percentage such as 20%)';
  if (value > (percent ? 100 : 1)) return `probability ${written} is above ${percent ? '100%' : `1 ${forms}`}`;
  if (value < 0) return `probability ${written} is below ${percent ? '0%' : `0 ${forms}`}`;
  return undefined;
}

/** A rule in the --fault text form or JSON, the text's probability judged in its own terms; a 400 (ApiError) naming what is wrong. */
function faultRule(rule: FaultRuleJson | string, subject: string): FaultRule {
  const outOfRange = typeof rule === 'string' ? probabilityOutOfRange(rule) : undefined;
  if (outOfRange !== undefined) throw new ApiError(400, `${subject}: ${outOfRange}`);
  return faultRuleFrom(rule, subject);
}

/** `--fault TEXT`, repeatable (or comma-separated in GAME_SERVICE_FAULT): each checked before the server starts. */
export function parseFaultFlags(values: unknown): FaultRule[] {
  return parseList(values).map((text) => {
    try {
      return faultRule(text, `--fault ${JSON.stringify(text)}`);
    } catch (error) {
      // A rule's 400 names where the rule was written: a usage error.
      throw error instanceof ApiError ? new CliError('GS_USAGE', error.message) : error;
    }
  });
}

/** `--fault-seed N`: the seed of the fault draws, to replay a run. */
export function parseFaultSeed(value: unknown): number {
  const seed = flagNumber(value);
  if (!Number.isInteger(seed) || seed < 0 || seed > MAX_FAULT_SEED) {
    throw new CliError('GS_USAGE', `--fault-seed ${JSON.stringify(value)} is not a seed; expected an integer from 0 to ${MAX_FAULT_SEED}`);
  }
  return seed;
}

/** The config file's `faults`, texts or JSON rules; throws every bad one at once, each naming its JSON path. */
export function configFaults(path: string, faults: readonly (FaultRuleJson | string)[] | null | undefined): FaultRule[] | undefined {
  const problems = new ProblemList();
  const rules = faults?.map((rule, index) => {
    try {
      return faultRule(rule, `--config ${path}: /faults/${index}`);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      problems.add(new CliError('GS_CONFIG', error.message));
      return undefined;
    }
  });
  problems.throwIfAny();
  return rules?.filter((rule) => rule !== undefined);
}
