import yargs, { type Options } from 'yargs';
import { CliError, EXIT_CODES } from './cli-error.js';
import { readConfigFile } from './config-file.js';
import { dropForeignVariables, ENV_PREFIX, normalizeSwitchVariables } from './environment.js';
import { parseOriginList, parsePort } from './flag-values.js';
import { runMockCommand } from './mock.js';
import { PACKAGE_VERSION } from './package-info.js';

const DEFAULT_PORT = 8080;
const DEFAULT_HOST = '127.0.0.1';

const MOCK_FLAGS = {
  // A string, so that the message quotes what was typed; parsePort makes it a number.
  port: { type: 'string', requiresArg: true, default: DEFAULT_PORT, coerce: parsePort, describe: 'TCP port to listen on; 0 picks a free port (the URL is printed on start)' },
  host: { type: 'string', requiresArg: true, default: DEFAULT_HOST, describe: 'Address to bind; 0.0.0.0 or :: to accept other machines' },
  'game-origin': {
    type: 'string',
    array: true,
    requiresArg: true,
    default: [] as string[],
    coerce: parseOriginList,
    describe: 'Origin of a game client (repeatable, or comma-separated): its requests skip the gameplay, read and public buckets and get CORS',
  },
  'trust-proxy': { type: 'boolean', default: false, describe: 'Take the client IP from the first X-Forwarded-For hop instead of the TCP peer' },
} as const satisfies Record<string, Options>;

/** Flags that are on or off, whose values from the environment and files need checking. */
const SWITCH_FLAGS = Object.entries(MOCK_FLAGS).filter(([, option]) => option.type === 'boolean').map(([flag]) => flag);

/** Every flag of each command, config included: what GAME_SERVICE_<FLAG> variables may set. */
const COMMAND_FLAGS: Readonly<Record<string, readonly string[]>> = {
  mock: [...Object.keys(MOCK_FLAGS), 'config'],
};

function cli(argv: readonly string[]) {
  return yargs(argv)
    .scriptName('game-service')
    .usage('$0 <command> [options]\n\nA mock of the Game Service HTTP API, in memory.')
    .env(ENV_PREFIX)
    .command(
      'mock',
      'Serve the whole Game Service API from memory; verification codes are printed to the console',
      (command) =>
        command
          .options(MOCK_FLAGS)
          .config('config', 'JSON file whose keys are these flags, e.g. {"port": 9000, "gameOrigin": ["http://localhost:5173"]}', (path: string) => readConfigFile(path, SWITCH_FLAGS))
          .epilog(
            `Every flag can also come from the environment as ${ENV_PREFIX}_<FLAG> (${ENV_PREFIX}_PORT=9000, ${ENV_PREFIX}_GAME_ORIGIN=a,b).\n` +
              'Precedence: flags > environment > --config file > defaults.',
          ),
      (args) =>
        runMockCommand({
          port: args.port,
          host: args.host,
          gameOrigins: args['game-origin'],
          trustProxy: args['trust-proxy'],
        }),
    )
    .demandCommand(1, 'Name a command: mock')
    .strict()
    .version(PACKAGE_VERSION)
    .help()
    .alias('h', 'help')
    .wrap(Math.min(110, process.stdout.columns || 110))
    .fail((message, error) => {
      throw error instanceof CliError ? error : new CliError('GS_USAGE', message ?? error?.message ?? 'invalid arguments');
    });
}

/** Runs the CLI; resolves to the process exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const command = argv[0] ?? '';
  try {
    dropForeignVariables(process.env, command, COMMAND_FLAGS[command] ?? []);
    normalizeSwitchVariables(process.env, SWITCH_FLAGS);
    await cli(argv).parseAsync();
    return EXIT_CODES.success;
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    console.error(`game-service: ${error.message}`);
    if (error.code === 'GS_USAGE') console.error("Run 'game-service --help' or 'game-service <command> --help' for the options.");
    return error.exitCode;
  }
}
