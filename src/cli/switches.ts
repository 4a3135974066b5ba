import { CliError } from './cli-error.js';

const SWITCH_VALUES: Readonly<Record<string, boolean>> = { true: true, '1': true, yes: true, on: true, false: false, '0': false, no: false, off: false };

/**
 * The value of an on/off flag given in the environment or a config file. yargs would read anything but
 * "true" as off, so that GAME_SERVICE_TRUST_PROXY=1 silently meant the opposite of what was asked.
 */
export function parseSwitch(flag: string, value: unknown, source: string): boolean {
  const parsed = typeof value === 'boolean' ? value : SWITCH_VALUES[String(value).trim().toLowerCase()];
  if (parsed === undefined) {
    throw new CliError('GS_USAGE', `${source} sets --${flag} to ${JSON.stringify(value)}; expected true or false (or 1/0, yes/no, on/off)`);
  }
  return parsed;
}
