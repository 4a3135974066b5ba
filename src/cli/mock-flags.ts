import type { Options } from 'yargs';
import { definedOnly } from '../standalone/defined-only.js';
import { shownDefault, type FlagDeclaration, type SettingDeclaration } from '../standalone/setting-declaration.js';
import { FLAG_SETTINGS, type MockFlags } from '../standalone/setting-forms.js';
import { numberFlag } from './flag-kinds.js';

/** How yargs reads each kind of flag. */
function kindOptions(flag: FlagDeclaration): Options {
  // yargs calls coerce with what it read, which the kind makes the input `parse` expects.
  const parse = flag.parse as ((value: unknown) => unknown) | undefined;
  if (flag.kind === 'boolean') return { type: 'boolean' };
  if (flag.kind === 'number') return numberFlag(parse ?? ((value) => value));
  return { type: 'string', requiresArg: true, ...(flag.kind === 'list' ? { array: true } : {}), ...definedOnly({ coerce: parse, choices: flag.choices }) };
}

function yargsOption(flag: FlagDeclaration, setting: SettingDeclaration): Options {
  return { ...kindOptions(flag), ...definedOnly({ defaultDescription: shownDefault(setting) }), describe: setting.description };
}

/**
 * The flags of `game-service mock`, from the settings table. No yargs defaults: a value yargs holds was given
 * (flag or environment), so that it outranks the --config file; defaultDescription shows the default in --help.
 */
export const MOCK_FLAGS: Readonly<Record<string, Options>> = Object.fromEntries(
  FLAG_SETTINGS.map(({ flag, setting }) => [flag.name, yargsOption(flag, setting)]),
);

/** The mock's values among yargs' arguments, each made by its flag's parser and so of the type MockFlags gives it. */
export function mockFlagValues(args: Readonly<Record<string, unknown>>): MockFlags {
  return Object.fromEntries(FLAG_SETTINGS.flatMap(({ key }) => (args[key] === undefined ? [] : [[key, args[key]]])));
}
