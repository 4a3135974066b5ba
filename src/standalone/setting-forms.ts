import { camelCase, type CamelCase, type FileKeyDeclaration, type FlagValue, type OptionDeclaration, type SettingDeclaration } from './setting-declaration.js';
import { definedOnly } from './defined-only.js';
import { MOCK_SETTINGS } from './settings.js';

/** The three forms of the mock's settings, as types and lists derived from MOCK_SETTINGS: flags, config file, options. */

type Settings = typeof MOCK_SETTINGS;
type Flatten<T> = { [K in keyof T]: T[K] } & {};

/** The mock's flags as yargs hands them over: typed, from the command line or a GAME_SERVICE_* variable, or absent. */
export type MockFlags = {
  [K in keyof Settings as Settings[K] extends { flag: { name: infer Name extends string } } ? CamelCase<Name> : never]?:
    | FlagValue<Settings[K] extends { flag: infer Flag } ? Flag : never>
    | undefined;
};

/**
 * A `--config` file: the flags in camelCase, plus settings only a file can hold. A key the schema lets be null
 * (JSONSchemaType makes optional keys nullable) counts as left out.
 */
export type MockConfig = {
  [K in keyof Settings as Settings[K] extends { file: object } ? K : never]?:
    | (Settings[K] extends { file: FileKeyDeclaration<infer Value> } ? Value : never)
    | null;
};

type OptionName<K, Setting> = Setting extends { optionName: infer Name extends string } ? Name : K;
type OptionValue<Setting> = Setting extends { option: OptionDeclaration<infer Value> } ? Value : never;
type OptionKeys<Required extends boolean> = {
  [K in keyof Settings]: Settings[K] extends { option: OptionDeclaration<unknown, Required> } ? OptionName<K, Settings[K]> : never;
}[keyof Settings];
type OptionOf<Name> = { [K in keyof Settings as OptionName<K, Settings[K]>]: OptionValue<Settings[K]> }[Name & OptionKeys<boolean>];

/** The settings of one standalone mock, as flags, a config file and the environment resolve them: what `startMock` takes. */
export type MockOptions = Flatten<{ [Name in OptionKeys<true>]: OptionOf<Name> } & { [Name in OptionKeys<false>]?: OptionOf<Name> }>;

const SETTINGS: readonly (readonly [string, SettingDeclaration])[] = Object.entries(MOCK_SETTINGS);

/** The name of a setting's option in MockOptions. */
export function optionName(name: string, setting: SettingDeclaration): string {
  return setting.optionName ?? name;
}

/** The settings that have a flag, with the key yargs gives its value (`gameOrigin` for --game-origin). */
export const FLAG_SETTINGS = SETTINGS.flatMap(([name, setting]) =>
  setting.flag === undefined ? [] : [{ name, setting, flag: setting.flag, key: camelCase(setting.flag.name) }],
);

/** The settings a --config file may hold, under their names. */
export const FILE_SETTINGS = SETTINGS.flatMap(([name, setting]) => (setting.file === undefined ? [] : [{ name, setting, file: setting.file }]));

/** The settings only a --config file can hold: those with a key and no flag, `$schema` aside. */
export const FILE_ONLY_SETTINGS = FILE_SETTINGS.filter(({ name, setting }) => setting.flag === undefined && name !== '$schema');

/** The settings that are options of `startMock`. */
export const OPTION_SETTINGS = SETTINGS.flatMap(([name, setting]) =>
  setting.option === undefined ? [] : [{ name, setting, option: setting.option, optionName: optionName(name, setting) }],
);

/** What applies when neither a flag, nor the environment, nor the config file says otherwise. */
export const MOCK_DEFAULTS = Object.fromEntries(SETTINGS.flatMap(([name, setting]) => (setting.default === undefined ? [] : [[name, setting.default]]))) as {
  [K in keyof Settings as Settings[K] extends { default: unknown } ? K : never]: Settings[K] extends { default: infer Value } ? Value : never;
};

/** The options a mock starts with: every setting that has a default holds one. */
export type StartOptions = MockOptions & { [K in keyof typeof MOCK_DEFAULTS & keyof MockOptions]-?: Exclude<MockOptions[K], undefined> };

const OPTION_DEFAULTS = Object.fromEntries(
  OPTION_SETTINGS.flatMap(({ setting, optionName }) => (setting.default === undefined ? [] : [[optionName, setting.optionDefault ?? setting.default]])),
);

/** The settings' defaults where a program left options out: resolved once, as a mock starts (the CLI's options hold them all). */
export function withDefaults(options: MockOptions): StartOptions {
  return { ...OPTION_DEFAULTS, ...definedOnly(options) } as StartOptions;
}
