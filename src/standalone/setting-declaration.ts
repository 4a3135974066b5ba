import type { KeySchema } from '../core/schema-parts.js';

/** A flag of a `game-service` command; its environment variable is GAME_SERVICE_<FLAG> (`--game-origin`: GAME_SERVICE_GAME_ORIGIN). */
export interface FlagDeclaration {
  /** Without its dashes. */
  name: string;
  /** `list`: repeatable, or comma-separated. A `number` is read as typed, so that `parse` can refuse "" or "abc". */
  kind: 'string' | 'number' | 'boolean' | 'list';
  /** Makes the value typed; throws a usage error naming the flag. */
  parse?: (value: never) => unknown;
  choices?: readonly string[];
}

/** A flag's value as its parser makes it, or as yargs reads its kind. */
export type FlagValue<Flag> = Flag extends { parse: (value: never) => infer Value }
  ? Value
  : Flag extends { choices: readonly (infer Choice)[] }
    ? Choice
    : Flag extends { kind: 'boolean' }
      ? boolean
      : string;

/** A key of the --config file: its schema, and what it says of the key where the flag's words do not fit a file. */
export interface FileKey {
  schema: object;
  /**
   * A schema of several forms (`anyOf`), which ajv cannot mark nullable: published under `definitions` with
   * `schema` referring to it.
   */
  forms?: object;
  description?: string;
  /**
   * The file's value as the option holds it, checked as the flag's parser checks a flag's (`path` is the file's, to
   * name it); throws a CliError naming the key. Without it, what the schema checks is all the value needs.
   */
  parse?: (value: never, path: string) => unknown;
}

/** A key whose schema is checked against `Value`, what the key holds once valid (carried by the type alone). */
export interface FileKeyDeclaration<Value> extends FileKey {
  schema: KeySchema<Value>;
  parse?: (value: Value, path: string) => unknown;
  readonly value?: Value;
}

/** An option of `startMock` (MockOptions): its type, and how it is resolved. */
export interface OptionDeclaration<Value = unknown, Required extends boolean = boolean> {
  required: Required;
  /**
   * Resolved by the generic merge, as flag ?? file (through its key's `parse`) ?? default; else a function of
   * mock-options.ts resolves it, for a reason said there.
   */
  asGiven: boolean;
  /** Passed on to createService under the same name. */
  toService: boolean;
  readonly value?: Value;
}

/** One setting of the mock: its flag, config-file key and option, what it means and its default, declared once. */
export interface SettingDeclaration {
  /** What --help says of it, and the config schema unless the key has words of its own. */
  description: string;
  /** The value taken when neither a flag, nor the environment, nor the config file gives one. */
  default?: string | number | boolean;
  /** The default in words, where it is no single value (`none: memory`). */
  defaultText?: string;
  /** The default as the option holds it, where that is not `default` itself (`{ mode: 'off' }` for `off`). */
  optionDefault?: unknown;
  flag?: FlagDeclaration;
  /** Its key in the --config file is the setting's name. */
  file?: FileKey;
  option?: OptionDeclaration;
  /** The option's name where it is not the setting's (`gameOrigins` of `gameOrigin`). */
  optionName?: string;
}

/** A config-file key holding a `Value`. */
export function fileKey<Value>(schema: KeySchema<Value>, more: Omit<FileKeyDeclaration<Value>, 'schema' | 'value'> = {}): FileKeyDeclaration<Value> {
  return { schema, ...more };
}

type OptionTraits = Partial<Pick<OptionDeclaration, 'asGiven' | 'toService'>>;

/** An optional option of `startMock` holding a `Value`. */
export function option<Value>({ asGiven = false, toService = false }: OptionTraits = {}): OptionDeclaration<Value, false> {
  return { required: false, asGiven, toService };
}

/** An option `startMock` cannot do without: the resolved settings always hold it. */
export function requiredOption<Value>({ asGiven = false, toService = false }: OptionTraits = {}): OptionDeclaration<Value, true> {
  return { required: true, asGiven, toService };
}

/** The --help and docs words for a setting's default: on/off for a switch, the value itself, or its words. */
export function shownDefault(setting: SettingDeclaration): string | undefined {
  if (typeof setting.default === 'boolean') return setting.default ? 'on' : 'off';
  return setting.default === undefined ? setting.defaultText : String(setting.default);
}

/** `game-origin` → `gameOrigin`, as yargs names a flag's value. */
export type CamelCase<Name extends string> = Name extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : Name;

export function camelCase<Name extends string>(name: Name): CamelCase<Name> {
  return name.replace(/-(\w)/g, (_match, letter: string) => letter.toUpperCase()) as CamelCase<Name>;
}
