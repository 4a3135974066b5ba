import type { Options } from 'yargs';
import { CliError } from '../standalone/cli-error.js';
import { invalidChoice, nearestNames } from '../standalone/did-you-mean.js';
import { camelCase } from '../standalone/setting-declaration.js';

/** Flags every command takes besides its own. */
const BUILT_IN_FLAGS = ['help', 'h', 'version'];

const dashed = (key: string) => key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/** The flag yargs parsed as `key`, as it was written on the command line (`--base-urll`, `--no-colour`, `-x`). */
function writtenFlag(key: string, args: readonly string[]): string {
  const written = args.find((arg) => arg === `--${key}` || arg.startsWith(`--${key}=`) || arg === `--no-${key}`);
  return written?.split('=')[0] ?? (key.length === 1 ? `-${key}` : `--${key}`);
}

/** What may help after an unknown flag: the command's flag it likely misspells, or the commands it belongs to. */
function hint(flag: string, command: string, commandFlags: Readonly<Record<string, Readonly<Record<string, Options>>>>): string {
  const name = dashed(flag.replace(/^--?(no-)?/, ''));
  const near = nearestNames(name, Object.keys(commandFlags[command] ?? {}));
  if (near.length > 0) return ` (did you mean ${near.map((known) => `--${known}`).join(' or ')}?)`;
  const owners = Object.keys(commandFlags).filter((other) => Object.hasOwn(commandFlags[other]!, name));
  return owners.length > 0 ? ` (a flag of ${owners.join(' and ')}, not ${command})` : '';
}

/**
 * Fails on the flags `command` does not know, each once as it was written (yargs lists a dashed flag twice,
 * under its camelCase twin too), with the known flag it likely misspells. `parsed` is yargs' reading of `args`;
 * without a command, yargs asks for one.
 */
export function checkKnownFlags(
  parsed: Readonly<Record<string, unknown>>,
  args: readonly string[],
  command: string,
  commandFlags: Readonly<Record<string, Readonly<Record<string, Options>>>>,
): void {
  if (!Object.hasOwn(commandFlags, command)) return;
  const known = new Set([...Object.keys(commandFlags[command] ?? {}), ...BUILT_IN_FLAGS].flatMap((flag) => [flag, camelCase(flag)]));
  const unknown = Object.keys(parsed).filter((key) => key !== '_' && key !== '$0' && !known.has(key));
  const flags = unknown.filter((key) => dashed(key) === key || !unknown.includes(dashed(key))).map((key) => writtenFlag(key, args));
  if (flags.length === 0) return;
  const listed = [...new Set(flags)].map((flag) => `${flag}${hint(flag, command, commandFlags)}`);
  throw new CliError('GS_USAGE', `${listed.length === 1 ? 'Unknown flag' : 'Unknown flags'} for ${command}: ${listed.join(', ')}`);
}

/**
 * Fails on a value that is none of its flag's choices (`--fail-on clients`), with the choice it likely misspells:
 * before yargs' own check, which prints its parser's words and suggests nothing.
 */
export function checkChoices(
  parsed: Readonly<Record<string, unknown>>,
  command: string,
  commandFlags: Readonly<Record<string, Readonly<Record<string, Options>>>>,
): void {
  for (const [flag, option] of Object.entries(commandFlags[command] ?? {})) {
    const choices = option.choices as readonly unknown[] | undefined;
    const given = parsed[flag];
    if (choices === undefined || given === undefined) continue;
    for (const value of Array.isArray(given) ? given : [given]) {
      if (!choices.includes(value)) throw new CliError('GS_USAGE', invalidChoice(flag, value, choices));
    }
  }
}
