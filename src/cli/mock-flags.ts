import { definedOnly } from '../standalone/defined-only.js';
import { shownDefault } from '../standalone/setting-declaration.js';
import { FLAG_SETTINGS, type MockFlags } from '../standalone/setting-forms.js';
import { commandValues, type CommandSetting } from './command-setting.js';

/** The flags of `game-service mock`, from its settings table (src/standalone/settings.ts), as every command declares its settings. */
export const MOCK_FLAG_SETTINGS: readonly CommandSetting[] = FLAG_SETTINGS.map(({ flag, setting }) => ({
  ...flag,
  description: setting.description,
  ...definedOnly({ defaultText: shownDefault(setting) }),
}));

/** The mock's values among yargs' arguments, each made by its flag's parser and so of the type MockFlags gives it. */
export async function mockFlagValues(args: Readonly<Record<string, unknown>>): Promise<MockFlags> {
  return commandValues(MOCK_FLAG_SETTINGS, args);
}
