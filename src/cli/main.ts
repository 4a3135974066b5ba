import { readFileSync } from 'node:fs';
import yargs, { type Options } from 'yargs';
import { CliError, EXIT_CODES } from './cli-error.js';
import { dropForeignVariables, ENV_PREFIX, normalizeSwitchVariables } from './environment.js';
import { runMockCommand } from './mock.js';
import { parseGameOrigin } from './origins.js';
import { PACKAGE_VERSION } from './package-info.js';
import { parseSwitch } from './switches.js';

const DEFAULT_PORT = 8080;
const DEFAULT_HOST = '127.0.0.1';

function readConfigFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError('GS_CONFIG', `cannot read --config ${path}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CliError('GS_CONFIG', `--config ${path} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new CliError('GS_CONFIG', `--config ${path} must hold a JSON object whose keys are the flags, e.g. {"port": 8080}`);
  }
  return normalizeSwitchKeys(parsed as Record<string, unknown>, `--config ${path}`);
}

/** On/off keys of a config file, in either spelling (trustProxy, trust-proxy), as booleans. */
function normalizeSwitchKeys(config: Record<string, unknown>, source: string): Record<string, unknown> {
  for (const flag of SWITCH_FLAGS) {
    for (const key of [flag, camelCase(flag)]) {
      if (key in config) config[key] = parseSwitch(flag, config[key], source);
    }
  }
  return config;
}

function camelCase(flag: string): string {
  return flag.replace(/-(\w)/g, (_match, letter: string) => letter.toUpperCase());
}

/** Repeated flags, a config array and a comma-separated env value all become one list. */
function originList(values: unknown): string[] {
  const items = (Array.isArray(values) ? values : [values]).flatMap((value) => String(value).split(','));
  return items.map((item) => item.trim()).filter((item) => item !== '').map(parseGameOrigin);
}

function parsePort(value: unknown): number {
  // A number from a config file or the default; a string as typed, where a blank one must not become 0.
  const port = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new CliError('GS_USAGE', `--port ${JSON.stringify(value)} is not a port; expected an integer from 0 to 65535 (0 = a free port)`);
  }
  return port;
}

const MOCK_FLAGS = {
  // A string, so that the message quotes what was typed; parsePort makes it a number.
  port: { type: 'string', requiresArg: true, default: DEFAULT_PORT, coerce: parsePort, describe: 'TCP port to listen on; 0 picks a free port (the URL is printed on start)' },
  host: { type: 'string', requiresArg: true, default: DEFAULT_HOST, describe: 'Address to bind; 0.0.0.0 or :: to accept other machines' },
  'game-origin': {
    type: 'string',
    array: true,
    requiresArg: true,
    default: [] as string[],
    coerce: originList,
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
          .config('config', 'JSON file whose keys are these flags, e.g. {"port": 9000, "gameOrigin": ["http://localhost:5173"]}', readConfigFile)
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
