import type { Options } from 'yargs';
import { CHECK_SETTINGS } from './check-settings.js';
import type { CommandSetting } from './command-setting.js';
import { yargsOptions } from './flag-kinds.js';
import { FUZZ_SETTINGS } from './fuzz-settings.js';
import { MOCK_FLAG_SETTINGS } from './mock-flags.js';
import { PROXY_SETTINGS } from './proxy-settings.js';

/** Every command's settings: what its flags and GAME_SERVICE_<FLAG> variables may set. */
export const COMMAND_SETTINGS: Readonly<Record<string, readonly CommandSetting[]>> = {
  mock: MOCK_FLAG_SETTINGS,
  check: CHECK_SETTINGS,
  fuzz: FUZZ_SETTINGS,
  proxy: PROXY_SETTINGS,
};

/** Every command's flags, as yargs reads them. */
export const COMMAND_FLAGS: Readonly<Record<string, Readonly<Record<string, Options>>>> = Object.fromEntries(
  Object.entries(COMMAND_SETTINGS).map(([command, settings]) => [command, yargsOptions(settings)]),
);
