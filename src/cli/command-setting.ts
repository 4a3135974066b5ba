import { camelCase, type CamelCase, type FlagDeclaration, type FlagValue } from '../standalone/setting-declaration.js';

/**
 * One setting of a command: its flag (and so its GAME_SERVICE_<FLAG> variable), what --help says of it, and the
 * check of a value its parser leaves unjudged. The command's code reads its value under the flag's name in
 * camelCase (`--max-wait` → `maxWait`), through `commandValues`.
 */
export interface CommandSetting extends FlagDeclaration {
  description: string;
  /** The default in --help's words; the code that reads the option applies it. */
  defaultText?: string;
  /** The command cannot run without it. */
  required?: boolean;
  /**
   * Judges a value its parser leaves a string (or of a flag without one), before anything starts: throws a usage
   * error naming the flag and the value. Apart from the parser where it reads modules too heavy for every command.
   */
  check?: (value: string) => void | Promise<void>;
}

type Flatten<T> = { [K in keyof T]: T[K] } & {};

/** The values of `Settings` under their options' names, each of the type its parser makes: what the command's code takes. */
export type CommandValues<Settings extends readonly CommandSetting[]> = Flatten<
  { [Setting in Settings[number] as Setting extends { required: true } ? CamelCase<Setting['name']> : never]: FlagValue<Setting> } & {
    [Setting in Settings[number] as Setting extends { required: true } ? never : CamelCase<Setting['name']>]?: FlagValue<Setting>;
  }
>;

/**
 * The values yargs parsed for `settings` (from the command line or GAME_SERVICE_* variables), under their options'
 * names, each value as typed checked where its setting says how: one that cannot work stops the command (exit 2)
 * before anything starts.
 */
export async function commandValues<const Settings extends readonly CommandSetting[]>(
  settings: Settings,
  args: Readonly<Record<string, unknown>>,
): Promise<CommandValues<Settings>> {
  const values: Record<string, unknown> = {};
  for (const setting of settings) {
    const name = camelCase(setting.name);
    const value = args[name];
    if (value === undefined) continue;
    if (typeof value === 'string') await setting.check?.(value);
    values[name] = value;
  }
  // Each value was made by its setting's parser (or is of its kind), the type CommandValues gives it.
  return values as CommandValues<Settings>;
}
