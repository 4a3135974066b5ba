import { count, fieldsTemplate, type KeySchema } from '../schema-parts.js';
import { USER_ROUTE_CATEGORIES, USER_ROUTE_METHODS, type UserRouteCategory, type UserRouteMethod } from './user-route.js';

/** The `routes` of a --config file: their type, and their schema in the one published for the file. */

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

/** A route of your own (docs/routes.md): answered from templates, or by a handler of a module. */
export interface RouteConfig extends RouteAnswerConfig {
  method: UserRouteMethod;
  path: string;
  category?: UserRouteCategory;
  cost?: number;
  encounter?: 'start' | 'resolve';
  answers?: RouteAlternativeConfig[];
  strictAnswers?: boolean;
  /** A JavaScript or TypeScript module of handlers, relative to the config file. */
  module?: string;
  /** The module's export that answers; default `default`. */
  handler?: string;
}

/** A route the control API takes while the mock runs: answered from templates (a handler's module is read from the config file). */
export type TemplateRouteConfig = Omit<RouteConfig, 'module' | 'handler'>;

/** The keys of a route's answer, and of each of its `answers`. */
const ROUTE_ANSWER_PROPERTIES = {
  status: { $ref: '#/definitions/routeStatus' },
  response: {
    ...fieldsTemplate,
    description:
      'Template of the fields added to {"success": true}: "{{params.x}}", "{{query.x}}", "{{body.x}}", "{{player.email}}", "{{ship.current_sector}}", "{{state.x ?? 1}}", "{{now}}".',
  },
  body: { $ref: '#/definitions/answerBody' },
  state: {
    ...fieldsTemplate,
    description: "Template of the player's state keys written on success, read back as {{state.key}} by any route; not on public routes.",
  },
  ship: {
    ...fieldsTemplate,
    description:
      'Template of fields written into the caller\'s ship on success (a move: {"current_sector": "{{body.sectorId}}"}); GET /api/player/ship shows them. Not on public routes.',
  },
  player: {
    ...fieldsTemplate,
    description: "Template of fields written into the caller's player on success; GET /api/player shows them. Not on public routes.",
  },
} as const;

/** The definitions the routes' schema refers to. */
export const ROUTE_DEFINITIONS = {
  // No type: any JSON value.
  answerBody: {
    description: 'Template of the whole answer body, any JSON, sent as it is: no "success" added (a recorded answer, replayed). Instead of response.',
  },
  routeStatus: {
    anyOf: [
      { type: 'integer', description: 'From 200 to 599.' },
      { type: 'string', description: 'A template giving one, e.g. "{{query.status ?? 200}}".' },
    ],
    description: "The status of a route's answer. Default 200.",
  },
} as const;

export const ROUTES_SCHEMA: KeySchema<RouteConfig[]> = {
  type: 'array',
  nullable: true,
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
      cost: { ...count(), description: 'Gameplay only: action points spent on success. Default 1.' },
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
      strictAnswers: {
        type: 'boolean',
        nullable: true,
        description:
          "A request none of answers holds for, without an answer of the route's own: true answers 404; false the answer whose conditions it sent with other values, its templates reading this request (marked X-Mock-Generalised). Default: the file's strictAnswers.",
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
};

/** A schema with each `#/definitions/` reference replaced by what it names. */
function inlined(schema: unknown, definitions: Readonly<Record<string, unknown>>): unknown {
  if (Array.isArray(schema)) return schema.map((item) => inlined(item, definitions));
  if (typeof schema !== 'object' || schema === null) return schema;
  const reference = (schema as { $ref?: unknown }).$ref;
  if (typeof reference === 'string' && reference.startsWith('#/definitions/')) return definitions[reference.slice('#/definitions/'.length)];
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, inlined(value, definitions)]));
}

/**
 * One route as `POST /__mock/routes` takes it, the file's format: the schema a file's route is checked with, standing
 * alone (a control body's schema goes into the OpenAPI document, which has no `definitions`).
 */
export const ROUTE_SCHEMA = inlined((ROUTES_SCHEMA as { items: object }).items, ROUTE_DEFINITIONS) as object;
