import yargs from 'yargs';
import { CliError, EXIT_CODES } from '../standalone/cli-error.js';
import { ENV_PREFIX, readVariables } from './environment.js';
import { CHECK_SETTINGS } from './check-settings.js';
import { COMMAND_FLAGS, COMMAND_SETTINGS } from './command-flags.js';
import { commandValues } from './command-setting.js';
import { FUZZ_SETTINGS } from './fuzz-settings.js';
import { yargsOptions } from './flag-kinds.js';
import { MOCK_FLAG_SETTINGS, mockFlagValues } from './mock-flags.js';
import { nearestNames } from '../standalone/did-you-mean.js';
import { PROXY_SETTINGS } from './proxy-settings.js';
import { mendHelp } from './help-text.js';
import { FILE_ONLY_SETTINGS } from '../standalone/setting-forms.js';
import { checkChoices, checkKnownFlags } from './unknown-flags.js';
import { SPEC_CHOICES } from '../spec/variants.js';
import { CONTROL_ROUTES } from '../spec/control-routes.js';
import { PACKAGE_VERSION } from '../version.js';
import type { StopSignals } from '../standalone/stop-signals.js';

const INTERRUPTED_EPILOG =
  'Ctrl+C (SIGINT) or SIGTERM stops sending, puts a control-API target back as the run found it and writes every report asked for, marked interrupted: exit 130 or 143. A second Ctrl+C exits at once.';

const CHECK_EPILOG = [
  'Without --base-url, an embedded mock is started on a free port and checked.',
  `A target with a control API (GET ${CONTROL_ROUTES.capabilities.pattern}) has its clock moved and its outbox read; any other is checked in real time, paced by its rate limits.`,
  'Exit codes: 0 every check passed (skipped ones are listed, never counted as passed), 1 a check failed, 2 usage or connection error.',
  INTERRUPTED_EPILOG,
].join('\n');

const FUZZ_EPILOG = [
  'Without --base-url, an embedded mock is started on a free port and fuzzed.',
  'Random sequences of register, verify, player reads, ship creation, health and (with clock control) clock moves, from several clients, players and origins; every answer is compared with a model of the rate limits.',
  'A disagreement is shrunk to the shortest sequence that shows it, printed with the command line that replays it.',
  'Exit codes: 0 no disagreement, 1 a disagreement was found, 2 usage or connection error.',
  INTERRUPTED_EPILOG,
].join('\n');

const PROXY_EPILOG = [
  "Forwards every request to --target unchanged (Host aside) and its answer back, and judges each exchange as it passes: the server's answers by the suite's own rules (envelopes, statuses, X-RateLimit-*, 429 and Retry-After, the rate-limit model per address and player, token lifetimes, action points), the client's requests by the spec's sentences (request fields, Content-Type, Authorization, retries before Retry-After, gameplay during an encounter).",
  'Each finding prints one line as it happens, naming its side and rule; the findings page is /__proxy/ui (loopback only). Ctrl+C or SIGTERM ends the run with a summary and the reports.',
  'Exit codes: 0 no finding of the --fail-on side, 1 findings of that side, 2 usage error or a port that cannot be bound.',
].join('\n');

const MOCK_EPILOG = [
  "Variants (--variant NAME): the other legal side of a choice the spec leaves open; all plays the first of each, random[:SEED] a random side of each, public-deployment the public deployment's choices.",
  ...SPEC_CHOICES.flatMap((choice) => choice.variants.map((variant) => `  ${variant.name.padEnd(32)} ${variant.does}`)),
  '',
  `Every flag can also come from the environment as ${ENV_PREFIX}_<FLAG> (${ENV_PREFIX}_PORT=9000, ${ENV_PREFIX}_GAME_ORIGIN=a,b).`,
  'Precedence: flags > environment > --config file > defaults.',
  'Only the --config file holds these keys (its JSON Schema is config.schema.json in the package):',
  ...FILE_ONLY_SETTINGS.map(({ name, setting }) => `  ${name}: ${setting.description}`),
].join('\n');

function cli(argv: readonly string[], variables: Readonly<Record<string, string>>, setExitCode: (code: number) => void, signals: StopSignals) {
  return (
    yargs(argv)
      .scriptName('game-service')
      .usage(
        '$0 <command> [options]\n\nA mock of the Game Service HTTP API, in memory; a conformance suite, a rate-limit fuzzer and a judging proxy for any server of it.',
      )
      // The GAME_SERVICE_* variables' values, which yargs takes where the command line gives no value.
      .config(variables)
      .command(
        'mock',
        'Serve the whole Game Service API from memory; verification codes are printed to the console',
        (command) => command.options(yargsOptions(MOCK_FLAG_SETTINGS)).epilog(MOCK_EPILOG),
        // Loaded on demand, like the other commands' modules: the standalone server brings its stores and logger.
        async (args) => {
          const [{ runMockCommand }, { resolveMockOptions }] = await Promise.all([import('../standalone/mock.js'), import('../standalone/mock-options.js')]);
          await runMockCommand(await resolveMockOptions(await mockFlagValues(args)), signals);
        },
      )
      .command(
        'check',
        'Check a server against the spec: envelopes, status codes, rate limits and expiry (exit 1 when a check fails)',
        (command) => command.options(yargsOptions(CHECK_SETTINGS)).epilog(CHECK_EPILOG),
        // Loaded on demand: the suite brings vitest and the fuzzer fast-check, which `mock` never needs at start-up.
        // Every value is checked first, so that one that cannot work stops the run before anything starts.
        async (args) => {
          const options = await commandValues(CHECK_SETTINGS, args);
          (await import('./target-checks.js')).checkCombinations(options);
          setExitCode(await (await import('./check.js')).runCheckCommand(options, signals));
        },
      )
      .command(
        'fuzz',
        "Fuzz the target's rate limits with model-based random sequences; shrink any disagreement (exit 1 when one is found)",
        (command) => command.options(yargsOptions(FUZZ_SETTINGS)).epilog(FUZZ_EPILOG),
        async (args) => {
          const options = await commandValues(FUZZ_SETTINGS, args);
          (await import('./target-checks.js')).checkCombinations(options);
          setExitCode(await (await import('./fuzz.js')).runFuzzCommand(options, signals));
        },
      )
      .command(
        'proxy',
        "Judge live traffic: forward a client's requests to a deployment and report where either departs from the spec",
        (command) => command.options(yargsOptions(PROXY_SETTINGS)).epilog(PROXY_EPILOG),
        async (args) => {
          setExitCode(await (await import('./proxy.js')).runProxyCommand(await commandValues(PROXY_SETTINGS, args), signals));
        },
      )
      .demandCommand(1, 'Name a command: mock, check, fuzz or proxy')
      // Before yargs' own strict check, which names a dashed flag twice and suggests nothing.
      .middleware((parsed) => {
        checkKnownFlags(parsed, argv, String(parsed._[0]), COMMAND_FLAGS);
        checkChoices(parsed, String(parsed._[0]), COMMAND_FLAGS);
      }, true)
      .strict()
      .version(PACKAGE_VERSION)
      .help()
      .alias('h', 'help')
      .wrap(Math.min(110, process.stdout.columns || 110))
      .fail((message, error) => {
        throw error instanceof CliError ? error : new CliError('GS_USAGE', message ?? error?.message ?? 'invalid arguments');
      })
  );
}

/** Where the CLI runs: the process's environment and signals, or stand-ins for them inside another program. */
export interface CliSurroundings {
  env: Readonly<Record<string, string | undefined>>;
  signals: StopSignals;
}

/** Runs the CLI; resolves to the process exit code. */
export async function main(argv: readonly string[], { env, signals }: CliSurroundings = { env: process.env, signals: process }): Promise<number> {
  const command = argv[0] ?? '';
  try {
    // yargs would call it an unknown argument, which hides that the command itself is what is wrong.
    if (command !== '' && !command.startsWith('-') && !Object.hasOwn(COMMAND_FLAGS, command)) {
      const commands = Object.keys(COMMAND_FLAGS);
      const near = nearestNames(command, commands);
      const hint = near.length > 0 ? `; did you mean ${near.join(' or ')}?` : '';
      throw new CliError('GS_USAGE', `Unknown command ${JSON.stringify(command)}; commands: ${commands.join(', ')}${hint}`);
    }
    const variables = await readVariables(env, command, COMMAND_SETTINGS[command] ?? []);
    let exitCode: number = EXIT_CODES.success;
    // With a callback, yargs hands over what it would print (--help, --version) instead of printing it.
    let output = '';
    await cli(argv, variables, (code) => (exitCode = code), signals).parseAsync(argv, {}, (_error, _argv, text) => {
      output = text;
    });
    if (output !== '') console.log(mendHelp(output));
    return exitCode;
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    console.error(`game-service: ${error.message}`);
    if (error.code === 'GS_USAGE') console.error("Run 'game-service --help' or 'game-service <command> --help' for the options.");
    return error.exitCode;
  }
}
