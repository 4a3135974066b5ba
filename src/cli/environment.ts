import { parseSwitch } from './flag-values.js';

export const ENV_PREFIX = 'GAME_SERVICE';

/** The flag a GAME_SERVICE_<FLAG> variable sets: GAME_SERVICE_GAME_ORIGIN → game-origin. */
function flagOf(variable: string): string {
  return variable.slice(ENV_PREFIX.length + 1).toLowerCase().replaceAll('_', '-');
}

/**
 * Removes GAME_SERVICE_* variables that are not flags of the command being run, so that a variable
 * meant for another command (or another tool) is ignored with a notice instead of failing strict parsing.
 */
export function dropForeignVariables(env: NodeJS.ProcessEnv, command: string, flags: readonly string[]): void {
  for (const variable of Object.keys(env)) {
    if (!variable.startsWith(`${ENV_PREFIX}_`) || flags.includes(flagOf(variable))) continue;
    console.error(`game-service: ignoring ${variable}: '${command}' has no --${flagOf(variable)} option`);
    delete env[variable];
  }
}

/** Rewrites on/off variables to the "true"/"false" yargs understands, or throws for a value that is neither. */
export function normalizeSwitchVariables(env: NodeJS.ProcessEnv, switches: readonly string[]): void {
  for (const flag of switches) {
    const variable = `${ENV_PREFIX}_${flag.toUpperCase().replaceAll('-', '_')}`;
    const value = env[variable];
    if (value !== undefined) env[variable] = String(parseSwitch(flag, value, variable));
  }
}
