import { CliError } from '../standalone/cli-error.js';
import { didYouMean, invalidChoice } from '../standalone/did-you-mean.js';
import { parseSwitch } from '../standalone/flag-values.js';
import type { CommandSetting } from './command-setting.js';

export const ENV_PREFIX = 'GAME_SERVICE';

/** The flag a GAME_SERVICE_<FLAG> variable sets: GAME_SERVICE_GAME_ORIGIN → game-origin. */
function flagOf(variable: string): string {
  return variable
    .slice(ENV_PREFIX.length + 1)
    .toLowerCase()
    .replaceAll('_', '-');
}

/** The value of a variable as its flag reads it; throws the error the flag would give. */
async function readValue(setting: CommandSetting, value: string): Promise<string> {
  if (setting.kind === 'boolean') return String(parseSwitch(value, `--${setting.name}`));
  if (setting.choices !== undefined && !setting.choices.includes(value)) {
    throw new CliError('GS_USAGE', invalidChoice(setting.name, value, setting.choices));
  }
  (setting.parse as ((value: string) => unknown) | undefined)?.(value);
  await setting.check?.(value);
  return value;
}

/**
 * The values the GAME_SERVICE_* variables give `command`'s settings (by flag name), for yargs to take where the
 * command line gives none. A bad value is reported naming its variable (`GAME_SERVICE_PORT=abc: --port "abc" is
 * not a port; …`): yargs would name the flag only. A variable meant for another command (or another tool) is
 * left out with a notice instead of failing strict parsing; on/off values become the "true"/"false" yargs
 * understands, which would otherwise read anything but "true" as off.
 */
export async function readVariables(
  env: Readonly<Record<string, string | undefined>>,
  command: string,
  settings: readonly CommandSetting[],
): Promise<Record<string, string>> {
  const values: Record<string, string> = {};
  for (const [variable, value] of Object.entries(env)) {
    if (!variable.startsWith(`${ENV_PREFIX}_`) || value === undefined) continue;
    const flag = flagOf(variable);
    const setting = settings.find(({ name }) => name === flag);
    if (setting === undefined) {
      const variableOf = (known: string) => `${ENV_PREFIX}_${known.toUpperCase().replaceAll('-', '_')}`;
      const hint = didYouMean(
        flag,
        settings.map(({ name }) => name),
        variableOf,
      );
      console.error(`game-service: ignoring ${variable}: '${command}' has no --${flag} option${hint}`);
      continue;
    }
    try {
      values[flag] = await readValue(setting, value);
    } catch (error) {
      throw error instanceof CliError ? new CliError(error.code, `${variable}=${value}: ${error.message}`, error.exitCode) : error;
    }
  }
  return values;
}
