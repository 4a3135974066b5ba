import { dirname, isAbsolute, join } from 'node:path';
import type { BotCheck } from '../core/bot-check.js';
import { DEFAULT_ACTION_POINTS } from '../core/options.js';
import { compileUserRoutes } from '../core/user-routes/compile-routes.js';
import { compileResourceTemplates } from '../core/user-routes/resource-templates.js';
import { pointer } from '../core/user-routes/template.js';
import { routeCategory, userRouteId, type UserRoute } from '../core/user-routes/user-route.js';
import { ROUTES } from '../spec/routes.js';
import { CliError } from './cli-error.js';
import { readConfigFile } from './config-file.js';
import { definedOnly } from './defined-only.js';
import { ProblemList } from './problems.js';
import { FLAG_SETTINGS, MOCK_DEFAULTS, OPTION_SETTINGS, type MockConfig, type MockFlags, type MockOptions } from './setting-forms.js';
import { mergeStoreOptions } from './store-options.js';
import { readWorldFile, type WorldFile } from './world-file.js';
import { handlerSource, HANDLER_NOT_LOADED, loadRouteHandlers } from './route-modules.js';

export interface ConfigSource {
  /** As given, for messages; a relative world path in the file is relative to its directory. */
  path: string;
  config: MockConfig;
}

/** Mock options before the world file is read. */
export type MergedMockOptions = Omit<MockOptions, 'world' | 'worldSource' | 'logger'>;

/** The options the table merges (OptionDeclaration.asGiven), under their names. */
type GivenOptions = Pick<MockOptions, 'port' | 'host' | 'trustProxy' | 'gameOrigins'> & Partial<MergedMockOptions>;

/**
 * Per setting the table merges: flag (or environment, which yargs folds into the flags) ?? config file (through its
 * key's parser) ?? default, key by key; left out when none says. A file value that cannot work is noted.
 */
function givenOptions(flags: MockFlags, file: ConfigSource | undefined, problems: ProblemList): GivenOptions {
  const fromFlags: Readonly<Record<string, unknown>> = flags;
  const fromFile: Readonly<Record<string, unknown>> = file?.config ?? {};
  const flagKey = new Map(FLAG_SETTINGS.map(({ name, key }) => [name, key]));
  const inFile = (name: string, parse: ((value: never, path: string) => unknown) | undefined) => {
    const value = fromFile[name] ?? undefined;
    return value === undefined || parse === undefined ? value : problems.attempt(() => parse(value as never, file!.path));
  };
  const entries = OPTION_SETTINGS.filter(({ option }) => option.asGiven).flatMap(({ name, setting, optionName }) => {
    const flag = flagKey.get(name);
    const value = (flag === undefined ? undefined : fromFlags[flag]) ?? inFile(name, setting.file?.parse) ?? setting.optionDefault ?? setting.default;
    return value === undefined ? [] : [[optionName, value]];
  });
  // The table gives port, host, trustProxy and gameOrigins a default, and each value the type its option declares.
  return Object.fromEntries(entries) as GivenOptions;
}

function withoutNulls<T extends object>(value: { [K in keyof T]?: T[K] | null | undefined }): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== null && item !== undefined)) as Partial<T>;
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

/** The world named by --world, or by the config file (relative to that file). */
export function worldFile(flags: MockFlags, file: ConfigSource | undefined): WorldFile | undefined {
  if (flags.world !== undefined) return { path: flags.world, subject: `--world ${flags.world}` };
  const world = file?.config.world ?? undefined;
  if (world === undefined || file === undefined) return undefined;
  const path = isAbsolute(world) ? world : join(dirname(file.path), world);
  return { path, subject: `world ${path} in --config ${file.path}` };
}

/**
 * Per setting, flag (or environment, which yargs folds into the flags) ?? config file ?? default, once, into the
 * options `startMock` takes: the table's settings generically (givenOptions), the rest below. Reads no file.
 * Throws every problem found, at once.
 */
export function mergeMockOptions(flags: MockFlags, file: ConfigSource | undefined): MergedMockOptions {
  const problems = new ProblemList();
  const config: MockConfig = file?.config ?? {};
  // Compiled, each problem named by its JSON path; the action points' costs price them.
  const routes = file === undefined ? [] : fileRoutes(file, problems);
  // Where a check fails, its fallback only keeps the shape: the problems noted are thrown below.
  const merged: MergedMockOptions = {
    ...givenOptions(flags, file, problems),
    // Two settings, --bot-check and --bot-check-token, make one option: a token implies mode tokens.
    botCheck: problems.attempt(() => mergeBotCheck(flags, config)) ?? { mode: MOCK_DEFAULTS.botCheck },
    // In the file only, checked against each other and against the routes they price.
    ...(file === undefined ? {} : actionPoints(file, routes, problems)),
    routes,
    // In the file only, templates compiled, each problem named by its JSON path.
    ...resourceTemplates(file, problems),
    // Four settings that exclude or need each other, a state file relative to the config file.
    ...(problems.attempt(() => mergeStoreOptions(flags, config, file?.path)) ?? { workers: MOCK_DEFAULTS.workers }),
    // The option is the path of the --config file, which the flag only switches on.
    ...definedOnly({ watchConfig: flags.watch === true ? (file?.path ?? problems.attempt(watchWithoutFile)) : undefined }),
  };
  problems.throwIfAny();
  return merged;
}

function watchWithoutFile(): never {
  throw new CliError('GS_USAGE', '--watch reads the --config file again when it changes: name one with --config FILE');
}

/** The routes with the handlers loaded for them, by their index in the file. */
function withHandlers(routes: readonly UserRoute[], handlers: ReadonlyMap<number, UserRoute['handler']>): UserRoute[] {
  return routes.map((route, index) => (handlers.has(index) ? { ...route, handler: handlers.get(index)! } : route));
}

/**
 * What `--watch` serves of a --config file read again: its routes, their modules imported anew (`reading` tells this
 * reading's modules from the last's), and the costs it gives them. Every problem of the file is thrown at once.
 */
export async function readConfigRoutes(path: string, reading: number): Promise<{ routes: UserRoute[]; actionCosts: Readonly<Record<string, number>> }> {
  const problems = new ProblemList();
  const config = readConfigFile(path, problems) ?? {};
  const file = { path, config };
  const routes = fileRoutes(file, problems);
  const { actionCosts = {} } = actionPoints(file, routes, problems);
  const handlers = await loadRouteHandlers(path, config.routes ?? [], problems, reading);
  problems.throwIfAny();
  return { routes: withHandlers(routes, handlers), actionCosts };
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
  const routes = options!.routes === undefined ? undefined : withHandlers(options!.routes, handlers);
  const loaded = { ...options!, ...(routes === undefined ? {} : { routes }) };
  return world === undefined ? loaded : { ...loaded, world: seeded!, worldSource: world.path };
}
