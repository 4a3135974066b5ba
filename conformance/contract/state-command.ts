import { spawn } from 'node:child_process';

/** Where a recording's run calls --state-command: before its first request, and once its player is signed in. */
export type StatePoint = 'before-run' | 'player-made';

/** What a state command is told: the point, the target, and from `player-made` on, the run's player. */
export interface StateContext {
  point: StatePoint;
  baseUrl: string;
  player?: { email: string; token: string };
}

/** The most a state command may take: an operator's script that seeds a row, not a migration. */
const STATE_COMMAND_MS = 120_000;

/**
 * Runs the command a recording depended on (Pact's provider states): through the shell, its output shown, with
 * GAME_SERVICE_STATE, GAME_SERVICE_BASE_URL and, once the player is made, GAME_SERVICE_PLAYER_EMAIL and
 * GAME_SERVICE_PLAYER_TOKEN. Throws when it fails, which ends the run (exit 2): the state is not there.
 */
export function runStateCommand(command: string, context: StateContext): Promise<void> {
  const env = {
    ...process.env,
    GAME_SERVICE_STATE: context.point,
    GAME_SERVICE_BASE_URL: context.baseUrl,
    ...(context.player === undefined ? {} : { GAME_SERVICE_PLAYER_EMAIL: context.player.email, GAME_SERVICE_PLAYER_TOKEN: context.player.token }),
  };
  return new Promise((resolve, reject) => {
    const child = spawn(command, { shell: true, env, stdio: ['ignore', 'inherit', 'inherit'], timeout: STATE_COMMAND_MS });
    child.on('error', (error) => reject(new Error(`--state-command could not start at ${context.point}: ${error.message}`)));
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`--state-command ${JSON.stringify(command)} failed at ${context.point} (${signal === null ? `exit ${code}` : signal})`));
    });
  });
}
