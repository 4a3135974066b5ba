import type { ActionPointRules } from '../core/action-points.js';
import type { BotCheck } from '../core/bot-check.js';
import { FAULT_RULE_SCHEMA, type FaultRuleJson } from '../core/fault-rules.js';
import { MAX_FAULT_SEED } from '../core/faults.js';
import {
  DEFAULT_ACTION_COSTS,
  DEFAULT_ACTION_POINTS,
  DEFAULT_BOT_CHECK,
  DEFAULT_CONTROL,
  DEFAULT_JOURNAL_SIZE,
  DEFAULT_MAX_WRONG_OTP_ATTEMPTS,
} from '../core/options.js';
import type { UserRoute } from '../core/user-routes/user-route.js';
import type { World } from '../core/world.js';
import { CONTROL_PREFIX, CONTROL_ROUTES } from '../spec/control-routes.js';
import { configFaults, parseFaultFlags, parseFaultSeed } from './fault-flags.js';
import { fileOrigins, parseCount, parseList, parseOriginList, parsePort, parseStoreUrl } from './flag-values.js';
import { fileVariants, parseVariants } from './variant-values.js';
import type { LogFormat, MockLogger } from './logger.js';
import { readableFile } from './readable-file.js';
import { GAME_ORIGIN_FLAG } from './game-origin-flag.js';
import { ROUTES_SCHEMA, type RouteConfig } from '../core/user-routes/route-schema.js';
import { count, fieldsTemplate, onOff, stringOrList } from '../core/schema-parts.js';
import { RECORDED_SESSION_SCHEMA, type RecordedRequest } from '../spec/recorded-session.js';
import { fileKey, option, requiredOption, type SettingDeclaration } from './setting-declaration.js';

export const LOG_FORMATS = ['text', 'json'] as const satisfies readonly LogFormat[];
export const BOT_CHECK_MODES = ['off', 'always-pass', 'always-fail', 'tokens'] as const satisfies readonly BotCheck['mode'][];
export const MAX_JOURNAL_SIZE = 100_000;

const ONE_ORIGIN = 'One origin, or several separated by commas.';

/**
 * Every setting of `game-service mock`, each declared once: its flag (and so its GAME_SERVICE_<FLAG> variable),
 * its --config key (under the setting's name), the option `startMock` takes (the setting's name unless
 * `optionName` says otherwise), its default and what it means. The yargs options, the
 * published config.schema.json, the types of all three forms and the resolution of each value come from here;
 * a test holds the docs' tables of flags and keys to it. Listed in the order --help and the schema show them.
 */
export const MOCK_SETTINGS = {
  $schema: { description: 'Lets an editor find this schema; ignored', file: fileKey<string>({ type: 'string', nullable: true }) },
  port: {
    description: 'TCP port to listen on; 0 picks a free port (the URL is printed on start)',
    default: 8080,
    flag: { name: 'port', kind: 'number', parse: parsePort },
    file: fileKey<number>({ type: 'integer', minimum: 0, maximum: 65_535, nullable: true }, { description: 'TCP port; 0 picks a free port' }),
    option: requiredOption<number>({ asGiven: true }),
  },
  host: {
    description: 'Address to bind; 0.0.0.0 or :: to accept other machines',
    default: '127.0.0.1',
    flag: { name: 'host', kind: 'string' },
    file: fileKey<string>({ type: 'string', minLength: 1, nullable: true }),
    option: requiredOption<string>({ asGiven: true }),
  },
  gameOrigin: {
    description: 'Origin of a game client (repeatable, or comma-separated): its requests skip the gameplay, read and public buckets and get CORS',
    defaultText: 'none',
    flag: GAME_ORIGIN_FLAG,
    file: fileKey<string | string[]>(
      { $ref: '#/definitions/gameOrigin' },
      {
        forms: stringOrList(ONE_ORIGIN),
        description: 'Origins of game clients (scheme://host[:port]), matched exactly against the Origin header',
        parse: fileOrigins('gameOrigin'),
      },
    ),
    optionDefault: [],
    // The service's option (ServiceOptions, documented in docs/hosts.md), which startMock passes on under its name.
    optionName: 'gameOrigins',
    option: requiredOption<readonly string[]>({ asGiven: true, toService: true }),
  },
  corsOrigin: {
    description:
      'Page origin a browser may read the API from (repeatable, or comma-separated); restricts CORS to these and the game origins. No rate-limit exemption',
    defaultText: 'any origin',
    flag: { name: 'cors-origin', kind: 'list', parse: parseOriginList },
    file: fileKey<string | string[]>(
      { $ref: '#/definitions/corsOrigin' },
      {
        forms: stringOrList(ONE_ORIGIN),
        description: 'Page origins (scheme://host[:port]) a browser may read the API from, besides the game origins. No rate-limit exemption',
        parse: fileOrigins('corsOrigin'),
      },
    ),
    // The service's option (ServiceOptions), which startMock passes on under its name.
    optionName: 'corsOrigins',
    option: option<readonly string[]>({ asGiven: true, toService: true }),
  },
  trustProxy: {
    description: 'Take the client IP from the first X-Forwarded-For hop instead of the TCP peer',
    default: false,
    flag: { name: 'trust-proxy', kind: 'boolean' },
    file: fileKey<boolean>(onOff),
    option: requiredOption<boolean>({ asGiven: true }),
  },
  control: {
    description: `Serve the control API under ${CONTROL_PREFIX} (clock, outbox, journal, world); --no-control turns it off`,
    default: DEFAULT_CONTROL.enabled,
    flag: { name: 'control', kind: 'boolean' },
    file: fileKey<boolean>(onOff, { description: `Serve the control API under ${CONTROL_PREFIX}` }),
    option: option<boolean>({ asGiven: true }),
  },
  controlPublic: {
    description: 'Answer the control API from any client, not only loopback ones',
    default: DEFAULT_CONTROL.public,
    flag: { name: 'control-public', kind: 'boolean' },
    file: fileKey<boolean>(onOff),
    option: option<boolean>({ asGiven: true }),
  },
  freezeClock: {
    description: 'Start the virtual clock frozen: time moves only through the control API',
    default: false,
    flag: { name: 'freeze-clock', kind: 'boolean' },
    file: fileKey<boolean>(onOff),
    option: option<boolean>({ asGiven: true }),
  },
  world: {
    description: 'World JSON file: the players to start with',
    defaultText: 'none',
    flag: { name: 'world', kind: 'string', parse: readableFile('world') },
    file: fileKey<string>(
      { type: 'string', minLength: 1, nullable: true },
      { description: 'A world JSON file of players to start with, relative to this file' },
    ),
    option: option<World>({ toService: true }),
  },
  worldSource: { description: 'Where the world came from (a file name), for messages and the banner', option: option<string>() },
  logFormat: {
    description: 'text for a person, json for one object per line',
    default: 'text',
    flag: { name: 'log-format', kind: 'string', choices: LOG_FORMATS },
    file: fileKey<LogFormat>({ type: 'string', enum: LOG_FORMATS, nullable: true }),
    option: option<LogFormat>({ asGiven: true }),
  },
  verbose: {
    description: 'Log one line per request (method, path, status, category, client IP)',
    default: false,
    flag: { name: 'verbose', kind: 'boolean' },
    file: fileKey<boolean>(onOff),
    option: option<boolean>({ asGiven: true }),
  },
  botCheck: {
    description: 'How register treats challengeToken',
    default: DEFAULT_BOT_CHECK.mode,
    optionDefault: DEFAULT_BOT_CHECK,
    flag: { name: 'bot-check', kind: 'string', choices: BOT_CHECK_MODES },
    file: fileKey<{ mode: BotCheck['mode']; tokens?: string[] }>(
      {
        type: 'object',
        nullable: true,
        required: ['mode'],
        additionalProperties: false,
        properties: {
          mode: { type: 'string', enum: BOT_CHECK_MODES },
          tokens: {
            type: 'array',
            items: { type: 'string', minLength: 1 },
            minItems: 1,
            nullable: true,
            description: 'The challengeToken values accepted in mode tokens.',
          },
        },
        if: { properties: { mode: { const: 'tokens' } } },
        // Stated again under `then` only because ajv's strict mode wants each required key defined beside it.
        // biome-ignore lint/suspicious/noThenProperty: a JSON Schema if/then, not a thenable
        then: { required: ['tokens'], properties: { tokens: { type: 'array' } } },
      },
      { description: 'The web client bot-check: its mode, how register treats challengeToken, and the tokens accepted in mode tokens' },
    ),
    option: option<BotCheck>({ toService: true }),
  },
  botCheckToken: {
    description: 'A challengeToken to accept (repeatable, or comma-separated); implies --bot-check tokens',
    flag: { name: 'bot-check-token', kind: 'list', parse: parseList },
  },
  maxWrongOtpAttempts: {
    description: 'Wrong codes after which the pending code is void; 0 = unlimited',
    default: DEFAULT_MAX_WRONG_OTP_ATTEMPTS,
    flag: { name: 'max-wrong-otp-attempts', kind: 'number', parse: parseCount('max-wrong-otp-attempts') },
    file: fileKey<number>(count()),
    option: option<number>({ asGiven: true, toService: true }),
  },
  actionPoints: {
    description: `Action-point rules. Defaults: start ${DEFAULT_ACTION_POINTS.start}, max ${DEFAULT_ACTION_POINTS.max}, refillIntervalMs ${DEFAULT_ACTION_POINTS.refillIntervalMs}, costs ${JSON.stringify(DEFAULT_ACTION_COSTS)}`,
    file: fileKey<{ start?: number; max?: number; refillIntervalMs?: number; costs?: Record<string, number> }>({
      type: 'object',
      nullable: true,
      required: [],
      additionalProperties: false,
      properties: {
        start: { ...count(), description: 'Points a new player starts with (at most max).' },
        max: { ...count(1), description: 'Most points a player can hold.' },
        refillIntervalMs: { ...count(1), description: 'Milliseconds per refilled point.' },
        costs: {
          type: 'object',
          nullable: true,
          required: [],
          additionalProperties: { type: 'integer', minimum: 0 },
          description: 'Cost by gameplay route id: createShip, or "METHOD /api/path" of a route in routes.',
        },
      },
    }),
    option: option<Partial<ActionPointRules>>({ toService: true }),
  },
  actionCosts: {
    description: 'Action-point cost by gameplay route id (actionPoints.costs in the file)',
    option: option<Readonly<Record<string, number>>>({ toService: true }),
  },
  routes: {
    description:
      "Routes of your own beyond the spec's (docs/routes.md): any method, :param path segments, a category of the spec, an answer from templates or from a handler of a module",
    file: fileKey<RouteConfig[]>(ROUTES_SCHEMA),
    option: option<readonly UserRoute[]>({ toService: true }),
  },
  session: {
    description:
      'The session `proxy --record` recorded: its requests in order, each with the shape of its answer, which `game-service check --recording` sends to a deployment and compares (docs/check.md); the mock ignores it',
    // Under `definitions`: its `body` is any JSON value, which ajv's schema types cannot state in place.
    file: fileKey<RecordedRequest[]>({ $ref: '#/definitions/session' }, { forms: RECORDED_SESSION_SCHEMA }),
  },
  strictAnswers: {
    description:
      "Answer 404 to a request none of a route's answers holds for (a value a recording never saw), not the nearest recorded answer marked X-Mock-Generalised; a route's own strictAnswers outranks it",
    default: false,
    file: fileKey<boolean>(onOff),
    option: option<boolean>({ asGiven: true, toService: true }),
  },
  ship: {
    description:
      'Fields of each new ship, as templates over its creation body, the player, the clock and a counter ({"credits": 1000, "ship_name": "{{body.shipName}}", "serial": "{{counter}}"}); GET /api/player/ship shows them beside id, name and createdAt',
    file: fileKey<Record<string, unknown>>(fieldsTemplate),
    option: option<Readonly<Record<string, unknown>>>({ toService: true }),
  },
  player: {
    description: "Fields of each new player, as templates over the player, the clock and a counter; GET /api/player shows them beside the mock's own",
    file: fileKey<Record<string, unknown>>(fieldsTemplate),
    option: option<Readonly<Record<string, unknown>>>({ toService: true }),
  },
  journalSize: {
    description: `Requests remembered for GET ${CONTROL_ROUTES.journal.pattern}`,
    // The service's own default: the option is left out unless given.
    defaultText: String(DEFAULT_JOURNAL_SIZE),
    file: fileKey<number>({ ...count(), maximum: MAX_JOURNAL_SIZE }),
    option: option<number>({ asGiven: true, toService: true }),
  },
  variant: {
    description: 'Play a legal variation where the spec is silent (repeatable, or comma-separated): a NAME below, all, random[:SEED] or public-deployment',
    defaultText: 'none: the choices of docs/spec-silent.md',
    flag: { name: 'variant', kind: 'list', parse: parseVariants },
    file: fileKey<string | string[]>(
      { $ref: '#/definitions/variant' },
      {
        forms: stringOrList('One entry, or several separated by commas.'),
        description:
          'Legal variations to play where the spec is silent: variant names, all, random[:SEED] or public-deployment (game-service mock --help lists them)',
        parse: fileVariants,
      },
    ),
    optionDefault: [],
    // The service's option (ServiceOptions, documented in docs/variants.md), which startMock passes on under its name.
    optionName: 'variants',
    option: option<readonly string[]>({ asGiven: true, toService: true }),
  },
  faults: {
    description:
      'Inject a fault: [METHOD] PATH EFFECT[@PROBABILITY], EFFECT 500|502|503|504|429|latency:MS|latency:MIN-MAX|reset|truncate, e.g. "GET /api/player 503@0.2" (repeatable)',
    defaultText: 'none',
    flag: { name: 'fault', kind: 'list', parse: parseFaultFlags },
    file: fileKey<(string | FaultRuleJson)[]>(
      { type: 'array', nullable: true, items: { anyOf: [{ type: 'string', minLength: 1 }, FAULT_RULE_SCHEMA] } },
      {
        description:
          'Fault rules in force from the start, each as --fault text ("GET /api/player 503@0.2") or JSON ({"kind": "latency", "path": "/api/*", "minMs": 100, "maxMs": 500})',
        parse: (faults, path) => configFaults(path, faults),
      },
    ),
    option: option<readonly (FaultRuleJson | string)[]>({ asGiven: true, toService: true }),
  },
  faultSeed: {
    description: 'Seed of the fault draws: the same seed and requests meet the same faults',
    defaultText: 'random, printed on start',
    flag: { name: 'fault-seed', kind: 'number', parse: parseFaultSeed },
    file: fileKey<number>(
      { ...count(), maximum: MAX_FAULT_SEED },
      { description: `Seed of the fault draws, 0 to ${MAX_FAULT_SEED}: the same seed and requests meet the same faults` },
    ),
    option: option<number>({ asGiven: true, toService: true }),
  },
  state: {
    description: 'SQLite state file: players, tokens, codes, the clock and the outbox survive restarts (one process per file)',
    defaultText: 'none: memory',
    flag: { name: 'state', kind: 'string' },
    file: fileKey<string>(
      { type: 'string', minLength: 1, nullable: true },
      { description: 'An SQLite state file, relative to this file: players, tokens, codes, the clock and the outbox survive restarts' },
    ),
    option: option<string>(),
  },
  store: {
    description: 'A Redis 7 or Valkey server, redis://HOST:PORT[/DB]: every process on it (--workers, other machines) is one service',
    defaultText: 'none: memory',
    flag: { name: 'store', kind: 'string', parse: parseStoreUrl },
    file: fileKey<string>({ type: 'string', minLength: 1, nullable: true }),
    option: option<string>(),
  },
  storePrefix: {
    description: 'Prefix of every key on the shared store, so that several mocks can share one server',
    default: 'game-service:',
    flag: { name: 'store-prefix', kind: 'string' },
    file: fileKey<string>({ type: 'string', nullable: true }),
    option: option<string>(),
  },
  workers: {
    description: 'Processes serving one port (node:cluster); more than 1 needs a shared store (--store)',
    default: 1,
    flag: { name: 'workers', kind: 'number', parse: parseCount('workers') },
    file: fileKey<number>(count(1), { description: 'Processes serving one port; more than 1 needs a shared store' }),
    option: option<number>(),
  },
  config: {
    description: 'JSON config file: these flags in camelCase, plus the keys only a file holds (below); its schema is config.schema.json',
    flag: { name: 'config', kind: 'string', parse: readableFile('config') },
  },
  watch: {
    description:
      'Read the --config file again each time it changes, and serve its routes (and their handler modules) from then on; a file with problems is refused, naming them, and the routes stay',
    // No default value: the option is the path watched, given only with the flag.
    defaultText: 'off',
    flag: { name: 'watch', kind: 'boolean' },
    optionName: 'watchConfig',
    option: option<string>(),
  },
  logger: {
    description: 'Where codes, requests and errors go; by default a logger of logFormat on stdout and stderr',
    option: option<MockLogger>(),
  },
} as const satisfies Readonly<Record<string, SettingDeclaration>>;
