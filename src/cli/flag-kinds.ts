import type { Options } from 'yargs';
import { definedOnly } from '../standalone/defined-only.js';
import type { CommandSetting } from './command-setting.js';

/**
 * A flag that takes a number. yargs' number type would turn "" into 0 and "abc" into NaN before `parse` saw
 * them: read as the string typed (a string type wins in yargs' parser) yet shown as [number] (a number type
 * wins in --help), the value reaches `parse`, which refuses it quoting what was typed.
 */
function numberFlag<Parsed>(parse: (value: unknown) => Parsed) {
  return { type: 'string', number: true, requiresArg: true, coerce: parse } as const;
}

/** How yargs reads each kind of flag. */
function kindOptions(setting: CommandSetting): Options {
  // yargs calls coerce with what it read, which the kind makes the input `parse` expects.
  const parse = setting.parse as ((value: unknown) => unknown) | undefined;
  if (setting.kind === 'boolean') return { type: 'boolean' };
  if (setting.kind === 'number') return numberFlag(parse ?? ((value) => value));
  return {
    type: 'string',
    requiresArg: true,
    ...(setting.kind === 'list' ? { array: true } : {}),
    ...definedOnly({ coerce: parse, choices: setting.choices }),
  };
}

/**
 * A setting as yargs reads it. No yargs default: a value yargs holds was given (flag or environment), so that the
 * mock's outranks its --config file and the other commands' code applies its own; defaultDescription shows it in --help.
 */
function yargsOption(setting: CommandSetting): Options {
  return {
    ...kindOptions(setting),
    ...definedOnly({ defaultDescription: setting.defaultText, demandOption: setting.required }),
    describe: setting.description,
  };
}

/** A command's settings as yargs reads them, by flag. */
export function yargsOptions(settings: readonly CommandSetting[]): Record<string, Options> {
  return Object.fromEntries(settings.map((setting) => [setting.name, yargsOption(setting)]));
}
