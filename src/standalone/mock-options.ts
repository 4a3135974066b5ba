import { dirname, isAbsolute, join } from 'node:path';
import type { BotCheck } from '../core/bot-check.js';
import { DEFAULT_ACTION_POINTS, DEFAULT_MAX_WRONG_OTP_ATTEMPTS } from '../core/options.js';
import { compileUserRoutes } from '../core/user-routes/compile-routes.js';
import { compileResourceTemplates } from '../core/user-routes/resource-templates.js';
import { routeCategory, userRouteId, type UserRoute } from '../core/user-routes/user-route.js';
import { chooseVariants, VariantError } from '../core/variant-choice.js';
import { ROUTES } from '../spec/routes.js';
import type { FaultRule } from '../core/faults.js';
import { CliError } from './cli-error.js';
import { readConfigFile } from './config-file.js';
import type { BotCheckMode, MockConfig } from './config-schema.js';
import { configFaults } from './fault-flags.js';
import { definedOnly } from './defined-only.js';
import { parseGameOrigin, parseList } from './flag-values.js';
import type { LogFormat } from './logger.js';
import type { MockOptions } from './mock-options-type.js';
import { ProblemList } from './problems.js';
import { mergeStoreOptions } from './store-options.js';
import { readWorldFile, type WorldFile } from './world-file.js';
import { handlerSource, HANDLER_NOT_LOADED, loadRouteHandlers } from './route-modules.js';

/** The mock's flags as yargs hands them over: typed, from the command line or a GAME_SERVICE_* variable, or absent. */
export interface MockFlags {
  port?: number | undefined;
  host?: string | undefined;
  gameOrigin?: string[] | undefined;
  corsOrigin?: string[] | undefined;
  trustProxy?: boolean | undefined;
  control?: boolean | undefined;
  controlPublic?: boolean | undefined;
  freezeClock?: boolean | undefined;
  world?: string | undefined;
  logFormat?: LogFormat | undefined;
  verbose?: boolean | undefined;
  botCheck?: BotCheckMode | undefined;
  botCheckToken?: string[] | undefined;
  maxWrongOtpAttempts?: number | undefined;
  variant?: string[] | undefined;
  fault?: FaultRule[] | undefined;
  faultSeed?: number | undefined;
  state?: string | undefined;
  store?: string | undefined;
  storePrefix?: string | undefined;
  workers?: number | undefined;
  config?: string | undefined;
}

/** What applies when neither a flag, nor the environment, nor the config file says otherwise. */
export const MOCK_DEFAULTS = {
  port: 8080,
  host: '127.0.0.1',
  trustProxy: false,
  control: true,
  controlPublic: false,
  freezeClock: false,
  logFormat: 'text',
  verbose: false,
  botCheck: 'off',
  maxWrongOtpAttempts: DEFAULT_MAX_WRONG_OTP_ATTEMPTS,
} as const satisfies { [K in keyof MockFlags]?: MockFlags[K] };

export interface ConfigSource {
  /** As given, for messages; a relative world path in the file is relative to its directory. */
  path: string;
  config: MockConfig;
}

/** Mock options before the world file is read. */
export type MergedMockOptions = Omit<MockOptions, 'world' | 'worldSource' | 'logger'>;

function withoutNulls<T extends object>(value: { [K in keyof T]?: T[K] | null | undefined }): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== null && item !== undefined)) as Partial<T>;
}

/** A JSON Pointer segment: `/` and `~` escaped. */
function pointer(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

function mergeBotCheck(flags: MockFlags, file: MockConfig): BotCheck {
  // A token given as a flag (or variable) implies mode tokens, and outranks the file as a whole.
  const mode = flags.botCheck ?? (flags.botCheckToken === undefined ? undefined : 'tokens') ?? file.botCheck?.mode ?? MOCK_DEFAULTS.botCheck;
  if (mode !== 'tokens') {
    if (flags.botCheckToken !== undefined) throw new CliError('GS_USAGE', `--bot-check-token is only read with --bot-check tokens, not --bot-check ${mode}`);
    return { mode };
  }
  const tokens = flags.botCheckToken ?? file.botCheck?.tokens ?? [];
  if (tokens.length === 0)
    throw new CliError('GS_USAGE', '--bot-check tokens needs at least one --bot-check-token T (or botCheck.tokens in the --config file)');
  return { mode, tokens };
}

/**
 * The file's routes as the service takes them, every problem noted by its JSON path (the core's checks, and a
 * handler named without a module). A module's handler is a stand-in until resolveMockOptions loads it.
 */
function fileRoutes(file: ConfigSource, problems: ProblemList): UserRoute[] {
  const routes = (file.config.routes ?? []).map((config, index): UserRoute => {
    const { module, handler, ...route } = withoutNulls<typeof config>(config);
    if (handler !== undefined && module === undefined) {
      problems.add(new CliError('GS_CONFIG', `--config ${file.path}: /routes/${index}/handler names an export, but the route names no module`));
    }
    return module === undefined
      ? { ...route, method: config.method, path: config.path }
      : { ...route, method: config.method, path: config.path, handler: HANDLER_NOT_LOADED, source: handlerSource({ module, handler }) };
  });
  const { problems: found } = compileUserRoutes(routes.map((route, index) => ({ route, at: `/routes/${index}` })));
  for (const problem of found) problems.add(new CliError('GS_CONFIG', `--config ${file.path}: ${problem.at} ${problem.message}`));
  return routes;
}

/** The file's `ship` and `player` templates, their problems noted by JSON path. */
function resourceTemplates(file: ConfigSource | undefined, problems: ProblemList): Pick<MergedMockOptions, 'ship' | 'player'> {
  const given = definedOnly({ ship: file?.config.ship ?? undefined, player: file?.config.player ?? undefined });
  for (const problem of compileResourceTemplates(given).problems)
    problems.add(new CliError('GS_CONFIG', `--config ${file!.path}: /${problem.at} ${problem.message}`));
  return given;
}

/** The file's action-point rules and costs, checked against each other and against the routes they price. */
function actionPoints(file: ConfigSource, routes: readonly UserRoute[], problems: ProblemList): Pick<MergedMockOptions, 'actionPoints' | 'actionCosts'> {
  const given = file.config.actionPoints ?? {};
  const rules = withoutNulls<typeof DEFAULT_ACTION_POINTS>({ start: given.start, max: given.max, refillIntervalMs: given.refillIntervalMs });
  const max = rules.max ?? DEFAULT_ACTION_POINTS.max;
  if (rules.start !== undefined && rules.start > max) {
    problems.add(new CliError('GS_CONFIG', `--config ${file.path}: /actionPoints/start must be <= max (${max})`));
  }
  const gameplay = routes.filter((route) => routeCategory(route) === 'gameplay').map(userRouteId);
  const priced = [...new Set([...ROUTES.filter((route) => route.category === 'gameplay').map((route) => route.id), ...gameplay])];
  for (const id of Object.keys(given.costs ?? {})) {
    if (!priced.includes(id)) {
      problems.add(
        new CliError('GS_CONFIG', `--config ${file.path}: /actionPoints/costs/${pointer(id)} is not a gameplay route; expected one of: ${priced.join(', ')}`),
      );
    }
  }
  return { actionPoints: rules, actionCosts: given.costs ?? {} };
}

/** The flag's origins (checked as they were parsed), or the file's under `key`, each one that is none noted. */
function origins(
  fromFlag: string[] | undefined,
  file: ConfigSource | undefined,
  key: 'gameOrigin' | 'corsOrigin',
  problems: ProblemList,
): string[] | undefined {
  if (fromFlag !== undefined) return fromFlag;
  const given = file?.config[key];
  if (given === undefined || given === null) return undefined;
  return parseList(given).flatMap((origin) => {
    try {
      return [parseGameOrigin(origin, `--config ${file!.path}: /${key}`)];
    } catch (error) {
      problems.add(new CliError('GS_CONFIG', (error as Error).message));
      return [];
    }
  });
}

/** The variants to play, checked now so that a wrong name stops the mock before it listens. */
function variants(flags: MockFlags, file: ConfigSource | undefined): string[] {
  const entries = flags.variant ?? (file?.config.variant === undefined || file.config.variant === null ? [] : parseList(file.config.variant));
  try {
    chooseVariants(entries);
  } catch (error) {
    if (!(error instanceof VariantError)) throw error;
    throw flags.variant === undefined
      ? new CliError('GS_CONFIG', `--config ${file!.path}: /variant: ${error.message}`)
      : new CliError('GS_USAGE', `--variant: ${error.message}`);
  }
  return entries;
}

/** The world named by --world, or by the config file (relative to that file). */
export function worldFile(flags: MockFlags, file: ConfigSource | undefined): WorldFile | undefined {
  if (flags.world !== undefined) return { path: flags.world, subject: `--world ${flags.world}` };
  const world = file?.config.world ?? undefined;
  if (world === undefined || file === undefined) return undefined;
  const path = isAbsolute(world) ? world : join(dirname(file.path), world);
  return { path, subject: `world ${path} in --config ${file.path}` };
}

/**
 * Per key, flag (or environment, which yargs folds into the flags) ?? config file ?? default. Reads no file.
 * Throws every problem found, at once.
 */
export function mergeMockOptions(flags: MockFlags, file: ConfigSource | undefined): MergedMockOptions {
  const problems = new ProblemList();
  const config: MockConfig = file?.config ?? {};
  const routes = file === undefined ? [] : fileRoutes(file, problems);
  // Where a check fails, its fallback only keeps the shape: the problems noted are thrown below.
  const merged: MergedMockOptions = {
    port: flags.port ?? config.port ?? MOCK_DEFAULTS.port,
    host: flags.host ?? config.host ?? MOCK_DEFAULTS.host,
    gameOrigins: origins(flags.gameOrigin, file, 'gameOrigin', problems) ?? [],
    trustProxy: flags.trustProxy ?? config.trustProxy ?? MOCK_DEFAULTS.trustProxy,
    control: flags.control ?? config.control ?? MOCK_DEFAULTS.control,
    controlPublic: flags.controlPublic ?? config.controlPublic ?? MOCK_DEFAULTS.controlPublic,
    freezeClock: flags.freezeClock ?? config.freezeClock ?? MOCK_DEFAULTS.freezeClock,
    logFormat: flags.logFormat ?? config.logFormat ?? MOCK_DEFAULTS.logFormat,
    verbose: flags.verbose ?? config.verbose ?? MOCK_DEFAULTS.verbose,
    botCheck: problems.attempt(() => mergeBotCheck(flags, config)) ?? { mode: MOCK_DEFAULTS.botCheck },
    maxWrongOtpAttempts: flags.maxWrongOtpAttempts ?? config.maxWrongOtpAttempts ?? MOCK_DEFAULTS.maxWrongOtpAttempts,
    ...(file === undefined ? {} : actionPoints(file, routes, problems)),
    routes,
    ...resourceTemplates(file, problems),
    variants: problems.attempt(() => variants(flags, file)) ?? [],
    ...(problems.attempt(() => mergeStoreOptions(flags, config, file?.path)) ?? { workers: 1 }),
    ...(config.journalSize === undefined || config.journalSize === null ? {} : { journalSize: config.journalSize }),
    ...definedOnly({
      corsOrigins: origins(flags.corsOrigin, file, 'corsOrigin', problems),
      faults: flags.fault ?? (file === undefined ? undefined : problems.attempt(() => configFaults(file.path, config))),
      faultSeed: flags.faultSeed ?? config.faultSeed ?? undefined,
    }),
  };
  problems.throwIfAny();
  return merged;
}

/**
 * The flags, the --config file they name, the world file and the route modules: the options `startMock` takes.
 * Every problem of them is reported at once, so that one run shows all there is to fix.
 */
export async function resolveMockOptions(flags: MockFlags): Promise<MockOptions> {
  const problems = new ProblemList();
  const config = flags.config === undefined ? undefined : readConfigFile(flags.config, problems);
  const file = flags.config === undefined || config === undefined ? undefined : { path: flags.config, config };
  const options = problems.attempt(() => mergeMockOptions(flags, file));
  const world = worldFile(flags, file);
  const seeded = world === undefined ? undefined : readWorldFile(world, file?.config.actionPoints?.max ?? DEFAULT_ACTION_POINTS.max, problems);
  const handlers = file === undefined ? new Map() : await loadRouteHandlers(file.path, file.config.routes ?? [], problems);
  problems.throwIfAny();
  // Both are defined once no problem was noted.
  const routes = options!.routes?.map((route, index) => (handlers.has(index) ? { ...route, handler: handlers.get(index)! } : route));
  const loaded = { ...options!, ...(routes === undefined ? {} : { routes }) };
  return world === undefined ? loaded : { ...loaded, world: seeded!, worldSource: world.path };
}
