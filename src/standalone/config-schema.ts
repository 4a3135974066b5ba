import type { JSONSchemaType } from 'ajv';
import type { BotCheck } from '../core/bot-check.js';
import { FAULT_RULE_SCHEMA, type FaultRuleJson } from '../core/fault-rules.js';
import { MAX_FAULT_SEED } from '../core/faults.js';
import { USER_ROUTE_CATEGORIES, USER_ROUTE_METHODS, type UserRouteCategory, type UserRouteMethod } from '../core/user-routes/user-route.js';
import type { LogFormat } from './logger.js';
import { publishedSchema } from '../core/schema-document.js';
import { CONTROL_PREFIX, CONTROL_ROUTES } from '../spec/control-routes.js';

export type BotCheckMode = BotCheck['mode'];

export const LOG_FORMATS = ['text', 'json'] as const satisfies readonly LogFormat[];
export const BOT_CHECK_MODES = ['off', 'always-pass', 'always-fail', 'tokens'] as const satisfies readonly BotCheckMode[];

export interface ActionPointsConfig {
  start?: number;
  max?: number;
  refillIntervalMs?: number;
  /** Cost by gameplay route id: createShip, or `METHOD /api/path` of a route in `routes`. */
  costs?: Record<string, number>;
}

/** A route of your own (docs/routes.md): answered from templates, or by a handler of a module. */
/** What a route answers with; also each of its `answers`. */
export interface RouteAnswerConfig {
  status?: number | string;
  response?: Record<string, unknown>;
  body?: unknown;
  state?: Record<string, unknown>;
  ship?: Record<string, unknown>;
  player?: Record<string, unknown>;
}

/** One of a route's answers, chosen by what the request sent. */
export interface RouteAlternativeConfig extends RouteAnswerConfig {
  when?: { params?: Record<string, string>; query?: Record<string, string>; body?: Record<string, unknown> };
}

export interface RouteConfig extends RouteAnswerConfig {
  method: UserRouteMethod;
  path: string;
  category?: UserRouteCategory;
  cost?: number;
  encounter?: 'start' | 'resolve';
  answers?: RouteAlternativeConfig[];
  /** A JavaScript or TypeScript module of handlers, relative to the config file. */
  module?: string;
  /** The module's export that answers; default `default`. */
  handler?: string;
}

/**
 * A `--config` file: the flags in camelCase, plus settings only a file can hold. Where the schema lets a key
 * be null (JSONSchemaType makes optional keys nullable), null counts as left out.
 */
export interface MockConfig {
  $schema?: string;
  port?: number;
  host?: string;
  gameOrigin?: string | string[];
  corsOrigin?: string | string[];
  trustProxy?: boolean;
  control?: boolean;
  controlPublic?: boolean;
  freezeClock?: boolean;
  world?: string;
  logFormat?: LogFormat;
  verbose?: boolean;
  botCheck?: { mode: BotCheckMode; tokens?: string[] };
  maxWrongOtpAttempts?: number;
  actionPoints?: ActionPointsConfig;
  routes?: RouteConfig[];
  ship?: Record<string, unknown>;
  player?: Record<string, unknown>;
  journalSize?: number;
  variant?: string | string[];
  /** Fault rules: the --fault text, or JSON. */
  faults?: (string | FaultRuleJson)[];
  faultSeed?: number;
  state?: string;
  store?: string;
  storePrefix?: string;
  workers?: number;
}

/** Keys whose value is on or off: a file may also spell them 1/0, yes/no, on/off, like the environment. */
export const CONFIG_SWITCH_KEYS = ['trustProxy', 'control', 'controlPublic', 'freezeClock', 'verbose'] as const satisfies readonly (keyof MockConfig)[];

export const MAX_JOURNAL_SIZE = 100_000;

const count = (description: string, minimum = 0) => ({ type: 'integer', minimum, nullable: true, description }) as const;
const onOff = (description: string) => ({ type: 'boolean', nullable: true, description }) as const;

const fieldsTemplate = (description: string) => ({ type: 'object', nullable: true, required: [], additionalProperties: true, description }) as const;

/** The keys of a route's answer, and of each of its `answers`. */
const ROUTE_ANSWER_PROPERTIES = {
  status: { $ref: '#/definitions/routeStatus' },
  response: fieldsTemplate(
    'Template of the fields added to {"success": true}: "{{params.x}}", "{{query.x}}", "{{body.x}}", "{{player.email}}", "{{ship.current_sector}}", "{{state.x ?? 1}}", "{{now}}".',
  ),
  body: { $ref: '#/definitions/answerBody' },
  state: fieldsTemplate("Template of the player's state keys written on success, read back as {{state.key}} by any route; not on public routes."),
  ship: fieldsTemplate(
    'Template of fields written into the caller\'s ship on success (a move: {"current_sector": "{{body.sectorId}}"}); GET /api/player/ship shows them. Not on public routes.',
  ),
  player: fieldsTemplate("Template of fields written into the caller's player on success; GET /api/player shows them. Not on public routes."),
} as const;

/** The JSON Schema of a `--config` file; published as config.schema.json by `npm run schema`. */
export const configSchema: JSONSchemaType<MockConfig> = {
  type: 'object',
  additionalProperties: false,
  definitions: {
    // Any JSON value: JSONSchemaType has no word for one, hence the cast.
    answerBody: {
      description: 'Template of the whole answer body, any JSON, sent as it is: no "success" added (a recorded answer, replayed). Instead of response.',
    } as unknown as JSONSchemaType<unknown>,
    routeStatus: {
      anyOf: [
        { type: 'integer', description: 'From 200 to 599.' },
        { type: 'string', description: 'A template giving one, e.g. "{{query.status ?? 200}}".' },
      ],
      description: "The status of a route's answer. Default 200.",
    },
    gameOrigin: {
      anyOf: [
        { type: 'string', description: 'One origin, or several separated by commas.' },
        { type: 'array', items: { type: 'string' } },
      ],
      description: 'Origins of game clients (scheme://host[:port]), matched exactly against the Origin header.',
    },
    corsOrigin: {
      anyOf: [
        { type: 'string', description: 'One origin, or several separated by commas.' },
        { type: 'array', items: { type: 'string' } },
      ],
      description:
        'Page origins (scheme://host[:port]) a browser may read the API from, besides the game origins. Default: any origin. No rate-limit exemption.',
    },
    variant: {
      anyOf: [
        { type: 'string', description: 'One entry, or several separated by commas.' },
        { type: 'array', items: { type: 'string' } },
      ],
      description:
        'Legal variations to play where the spec is silent: variant names, all, random[:SEED] or public-deployment (game-service mock --help lists them).',
    },
  },
  properties: {
    $schema: { type: 'string', nullable: true, description: 'Lets an editor find this schema; ignored.' },
    port: { type: 'integer', minimum: 0, maximum: 65_535, nullable: true, description: 'TCP port; 0 picks a free port. Default 8080.' },
    host: { type: 'string', minLength: 1, nullable: true, description: 'Address to bind. Default 127.0.0.1.' },
    // ajv cannot put nullable beside anyOf; a reference is the one way JSONSchemaType lets it out.
    gameOrigin: { $ref: '#/definitions/gameOrigin' },
    corsOrigin: { $ref: '#/definitions/corsOrigin' },
    trustProxy: onOff('Client IP = first X-Forwarded-For hop instead of the TCP peer. Default false.'),
    control: onOff(`Serve the control API under ${CONTROL_PREFIX}. Default true.`),
    controlPublic: onOff('Answer the control API from non-loopback clients too. Default false.'),
    freezeClock: onOff('Start the virtual clock frozen. Default false.'),
    world: { type: 'string', minLength: 1, nullable: true, description: 'A world JSON file of players to start with, relative to this file.' },
    logFormat: { type: 'string', enum: LOG_FORMATS, nullable: true, description: 'text (for a person) or json (one object per line). Default text.' },
    verbose: onOff('Log one line per request. Default false.'),
    botCheck: {
      type: 'object',
      nullable: true,
      required: ['mode'],
      additionalProperties: false,
      description: 'The web client bot-check. Default {"mode": "off"}.',
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
    maxWrongOtpAttempts: count('Wrong codes after which the pending code is void; 0 = unlimited. Default 5.'),
    actionPoints: {
      type: 'object',
      nullable: true,
      required: [],
      additionalProperties: false,
      description: 'Action-point rules. Defaults: start 60, max 60, refillIntervalMs 60000, costs {"createShip": 0}.',
      properties: {
        start: count('Points a new player starts with (at most max).'),
        max: count('Most points a player can hold.', 1),
        refillIntervalMs: count('Milliseconds per refilled point.', 1),
        costs: {
          type: 'object',
          nullable: true,
          required: [],
          additionalProperties: { type: 'integer', minimum: 0 },
          description: 'Cost by gameplay route id: createShip, or "METHOD /api/path" of a route in routes.',
        },
      },
    },
    routes: {
      type: 'array',
      nullable: true,
      description:
        "Routes of your own beyond the spec's (docs/routes.md): any method, :param path segments, a category of the spec, an answer from templates or from a handler of a module.",
      items: {
        type: 'object',
        required: ['method', 'path'],
        additionalProperties: false,
        properties: {
          method: { type: 'string', enum: USER_ROUTE_METHODS },
          path: {
            type: 'string',
            description: 'Under /api/; a :name segment is a parameter, read as {{params.name}}. May add a method to a spec path, not replace a spec route.',
          },
          category: {
            type: 'string',
            enum: USER_ROUTE_CATEGORIES,
            nullable: true,
            description:
              'gameplay (bearer token, gameplay bucket, action points), read (bearer token, read bucket) or public (no token, public bucket by IP). Default read for GET, gameplay otherwise.',
          },
          cost: count('Gameplay only: action points spent on success. Default 1.'),
          encounter: {
            type: 'string',
            enum: ['start', 'resolve'],
            nullable: true,
            description: 'Gameplay only. start: opens a fighter encounter; resolve: closes it (and is allowed during it).',
          },
          ...ROUTE_ANSWER_PROPERTIES,
          answers: {
            type: 'array',
            nullable: true,
            description:
              "Answers chosen by the request (a recording replayed): those whose when holds, the one with the most conditions first; several with the same when are served in turn to each caller, the last repeating. None holding: the route's own answer, or 404.",
            items: {
              type: 'object',
              required: [],
              additionalProperties: false,
              properties: {
                when: {
                  type: 'object',
                  nullable: true,
                  required: [],
                  additionalProperties: false,
                  description: 'What the request must have sent: every path parameter, query parameter and body field given, equal.',
                  properties: {
                    params: {
                      type: 'object',
                      nullable: true,
                      required: [],
                      additionalProperties: { type: 'string' },
                      description: "The path's :name segments, each equal to the text given.",
                    },
                    query: {
                      type: 'object',
                      nullable: true,
                      required: [],
                      additionalProperties: { type: 'string' },
                      description: 'Query parameters, each equal to the text given.',
                    },
                    body: {
                      type: 'object',
                      nullable: true,
                      required: [],
                      additionalProperties: true,
                      description: 'Fields of the JSON body, each equal to the value given.',
                    },
                  },
                },
                ...ROUTE_ANSWER_PROPERTIES,
              },
            },
          },
          module: {
            type: 'string',
            minLength: 1,
            nullable: true,
            description: 'A .js, .mjs or .ts module of handlers, relative to this file (.ts needs Node 22.18 or later).',
          },
          handler: { type: 'string', minLength: 1, nullable: true, description: 'The export of module that answers. Default "default".' },
        },
      },
    },
    ship: fieldsTemplate(
      'Fields of each new ship, as templates over its creation body, the player, the clock and a counter ({"credits": 1000, "ship_name": "{{body.shipName}}", "serial": "{{counter}}"}); GET /api/player/ship shows them beside id, name and createdAt.',
    ),
    player: fieldsTemplate(
      "Fields of each new player, as templates over the player, the clock and a counter; GET /api/player shows them beside the mock's own.",
    ),
    journalSize: { ...count(`Requests remembered for GET ${CONTROL_ROUTES.journal.pattern}. Default 500.`), maximum: MAX_JOURNAL_SIZE },
    variant: { $ref: '#/definitions/variant' },
    faults: {
      type: 'array',
      nullable: true,
      description:
        'Fault rules in force from the start, each as --fault text ("GET /api/player 503@0.2") or JSON ({"kind": "latency", "path": "/api/*", "minMs": 100, "maxMs": 500}).',
      items: { anyOf: [{ type: 'string', minLength: 1 }, FAULT_RULE_SCHEMA] },
    },
    faultSeed: {
      ...count(`Seed of the fault draws, 0 to ${MAX_FAULT_SEED}: the same seed and requests meet the same faults. Default: random, printed at start.`),
      maximum: MAX_FAULT_SEED,
    },
    state: {
      type: 'string',
      minLength: 1,
      nullable: true,
      description: 'An SQLite state file, relative to this file: players, tokens, codes, the clock and the outbox survive restarts. Default none (memory).',
    },
    store: {
      type: 'string',
      minLength: 1,
      nullable: true,
      description: 'A Redis 7 or Valkey server shared by every mock process, redis://HOST:PORT[/DB]. Default none (memory).',
    },
    storePrefix: { type: 'string', nullable: true, description: 'Prefix of every key the mock writes on the shared store. Default "game-service:".' },
    workers: count('Processes serving one port; more than 1 needs a shared store. Default 1.', 1),
  },
};

/** The published file's name, at the package root. */
export const CONFIG_SCHEMA_FILE = 'config.schema.json';

/** The text of config.schema.json: the schema as any draft-07 validator reads it, with the metadata an editor shows. */
export function publishedConfigSchema(): string {
  return publishedSchema(
    configSchema,
    'game-service mock --config file',
    'Settings of `game-service mock`. A flag or GAME_SERVICE_<FLAG> variable overrides the key of the same name.',
  );
}
