import { chooseVariants, VariantError } from '../core/variant-choice.js';
import { CliError } from './cli-error.js';
import { parseList } from './flag-values.js';

/** Variant entries, checked as one choice so that a wrong name stops the mock before it listens; `refuse` names where they were given. */
function checkedVariants(entries: string[], refuse: (why: string) => CliError): string[] {
  try {
    chooseVariants(entries);
  } catch (error) {
    throw error instanceof VariantError ? refuse(error.message) : error;
  }
  return entries;
}

/** --variant, repeatable or comma-separated. */
export function parseVariants(values: unknown): string[] {
  return checkedVariants(parseList(values), (why) => new CliError('GS_USAGE', `--variant: ${why}`));
}

/** The --config file's `variant`. */
export function fileVariants(value: string | string[], path: string): string[] {
  return checkedVariants(parseList(value), (why) => new CliError('GS_CONFIG', `--config ${path}: /variant: ${why}`));
}
