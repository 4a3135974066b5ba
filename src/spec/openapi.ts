import { OTP_LENGTH, OTP_LIFETIME_MS, RATE_LIMITS, RATE_LIMIT_WINDOW_MS, TOKEN_LIFETIME_MS, type RateLimitCategory } from './limits.js';
import { CONTROL_TAG, controlOperation, OPENAPI_PATH, templatePath, urlSafeId } from './openapi-control.js';
import {
  componentHeaders,
  operationResponses,
  UNROUTED_RESPONSES,
  UNROUTED_UNAUTHORIZED,
  withInjectedStatuses,
  type StatusNotes,
} from './openapi-responses.js';
import {
  componentSchemas,
  MOCK_HEALTH_RESPONSE,
  PLAYER_FIELDS_FLAT_RESPONSE,
  ROUTE_BODIES,
  SHIP_PAYLOAD_SCHEMAS,
  SHIP_READ_RESPONSE,
  ERROR_ENVELOPE,
  SUCCESS_ENVELOPE,
  type ShipPayloadReading,
} from './openapi-schemas.js';
import { type DocumentedVariants, documentedVariants } from './openapi-variants.js';
import type {
  OpenApiResponse,
  ConfiguredRoute,
  ControlRouteDescription,
  JsonSchema,
  OpenApiDocument,
  OpenApiMethod,
  OpenApiOperation,
  OpenApiParameter,
  OpenApiTag,
  ResourceFields,
} from './openapi-types.js';
import { categoryAuth, MOCK_ROUTES, type RouteId, ROUTES, type RouteSpec, specRoute } from './routes.js';
import { verifyEmailResponseSchema } from './schemas.js';

export { OPENAPI_PATH };
export type {
  ConfiguredRoute,
  ControlRouteSummary,
  OpenApiDocument,
  OpenApiHeader,
  OpenApiOperation,
  OpenApiResponse,
  ResourceFields,
} from './openapi-types.js';

export interface OpenApiOptions {
  /** The version of the service described (info.version); the mock gives its own. */
  version: string;
  /** Gameplay routes the mock was configured with; none by default. */
  configuredRoutes?: readonly ConfiguredRoute[];
  /** The mock's control routes, as capabilities lists them; without them the document leaves the control API out. */
  controlRoutes?: readonly ControlRouteDescription[];
  /** How the mock reads the ship creation payload (by the variant it plays); default any object. */
  shipPayload?: ShipPayloadReading;
  /** The fields the mock's configuration gives each ship (its `ship` template, the routes that write into ships); default none. */
  shipFields?: ResourceFields | undefined;
  /** The fields the mock's configuration gives each player (its `player` template, the routes that write into players); default none. */
  playerFields?: ResourceFields | undefined;
  /** Describe the routes the mock serves beyond the spec's table (GET /api/player/ship); default false, the spec's API alone. */
  mockRoutes?: boolean;
  /** The variants the mock plays (spec/variants.ts): their statuses, units and shapes are described; default none. */
  variants?: readonly string[];
  /** The statuses the mock's fault rules inject on an operation (its path as the document writes it); default none. */
  faultStatuses?: (method: string, path: string) => readonly number[];
}

export const BEARER_SCHEME = 'bearerAuth';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

const API_TAG: OpenApiTag = { name: 'game service', description: "The operations of the spec's Endpoints table." };
const CONFIGURED_TAG: OpenApiTag = {
  name: 'configured routes',
  'x-mock-defined': true,
  description:
    'Routes this mock was configured with, each in a category of the spec: gameplay routes spend their cost in action points; each answers `{success: true}` with its configured fields.',
};

const SUMMARIES: Record<RouteId, string> = {
  health: 'Whether the service is up, and its version',
  register: 'Send a one-time code to an email address',
  verifyEmail: 'Exchange the code for a bearer token',
  getPlayer: 'The player the token belongs to',
  createShip: "Create the player's ship",
};

const NOTES: Partial<Record<RouteId, StatusNotes>> = {
  health: { 200: 'The mock adds `success: true` and reports its own version.' },
  register: { 400: 'The mock answers 400 (a status the spec does not show) for an invalid or disposable email and for a missing or refused challengeToken.' },
  verifyEmail: {
    400: 'The mock answers 400 (a status the spec does not show) for a wrong, expired or used code.',
    429: 'The mock also answers 429 once too many wrong codes have voided the pending code, until the email registers again.',
  },
  createShip: { 400: 'The mock also answers 400 when the player already has a ship.' },
};

const pathOf = (id: RouteId): string => specRoute(id).path;

function rateLimit(category: RateLimitCategory): NonNullable<OpenApiOperation['x-rate-limit']> {
  const { limit, scope, exemptForGameOrigins } = RATE_LIMITS[category];
  return { category, limit, windowSeconds: RATE_LIMIT_WINDOW_MS / 1000, scope, exemptForGameOrigins };
}

function rateLimitSentence(category: RateLimitCategory): string {
  const { limit, windowSeconds, scope, exemptForGameOrigins } = rateLimit(category);
  const who = exemptForGameOrigins ? 'not counted for game origins' : 'counted for every caller';
  return `Rate limit "${category}": ${limit} requests per ${scope} per ${windowSeconds} s, ${who}.`;
}

const bearer = [{ [BEARER_SCHEME]: [] }];

/** The body a spec route answers with success, as the variants played shape it. */
function successBody(id: RouteId, variants: DocumentedVariants): JsonSchema {
  if (id === 'getPlayer' && variants.playerFieldsFlat) return PLAYER_FIELDS_FLAT_RESPONSE;
  if (id === 'health' && !variants.healthWithoutSuccess) return MOCK_HEALTH_RESPONSE;
  return ROUTE_BODIES[id].response;
}

function specOperation(route: RouteSpec & { id: RouteId }, shipPayload: ShipPayloadReading, variants: DocumentedVariants): OpenApiOperation {
  const response = successBody(route.id, variants);
  const request = route.id === 'createShip' ? SHIP_PAYLOAD_SCHEMAS[shipPayload] : ROUTE_BODIES[route.id].request;
  const verified = route.auth === 'verified' ? ' Needs the token of a player whose email is verified.' : '';
  return {
    operationId: route.id,
    tags: [API_TAG.name],
    summary: SUMMARIES[route.id],
    description: `${rateLimitSentence(route.category)}${verified}`,
    security: route.auth === 'none' ? [] : bearer,
    ...(request === undefined ? {} : { requestBody: { required: true, content: { 'application/json': { schema: request } } } }),
    responses: operationResponses(
      { category: route.category, auth: route.auth, readsBody: request !== undefined, ...optional('more', variants.statuses[route.id]) },
      { description: 'OK.', schema: response },
      { ...NOTES[route.id], ...variants.notes[route.id] },
    ),
    'x-rate-limit': rateLimit(route.category),
  };
}

const optional = <K extends string, V>(key: K, value: V | undefined) => (value === undefined ? {} : ({ [key]: value } as Record<K, V>));

/** /health under variant health-any-method: every other method answers as GET does. */
export const OTHER_HEALTH_METHODS = ['post', 'put', 'patch', 'delete', 'options'] as const;

/** GET /api/player/ship, which the mock serves though the spec's table lists only the POST. */
function shipReadOperation(route: (typeof MOCK_ROUTES)[number]): OpenApiOperation {
  return {
    operationId: route.id,
    tags: [API_TAG.name],
    summary: "The player's ship",
    description: `Served by the mock beyond the spec's table, as real clients read their ship. ${rateLimitSentence(route.category)}`,
    'x-mock-defined': true,
    security: bearer,
    responses: operationResponses(
      { category: route.category, auth: route.auth, readsBody: false, notFound: 'The player has no ship yet.' },
      { description: 'OK: the ship as created.', schema: SHIP_READ_RESPONSE },
    ),
    'x-rate-limit': rateLimit(route.category),
  };
}

/** The JSON object a configured route reads: the fields its templates and answers read, none of them required. */
function configuredBody(fields: readonly string[]): NonNullable<OpenApiOperation['requestBody']> {
  const properties = Object.fromEntries(fields.map((field) => [field, { description: 'Read by the route: any JSON value.' }]));
  return {
    required: false,
    content: { 'application/json': { schema: { type: 'object', ...(fields.length === 0 ? {} : { properties }) } } },
  };
}

/** A response with `schema` as its JSON body. */
const withBody = (response: OpenApiResponse, schema: JsonSchema): OpenApiResponse => ({ ...response, content: { 'application/json': { schema } } });

/**
 * What a configured route answers beyond its shape's statuses: each status its templates and answers give, with the
 * body they give it (`answerBodies`) where the document knows it; a status of the shape the route answers too takes
 * either body.
 */
function configuredResponses(route: ConfiguredRoute, responses: Record<string, OpenApiResponse>): Record<string, OpenApiResponse> {
  const ownBody = route.ownBody === true ? { description: 'The body an answer of the route gives, as it is.' } : undefined;
  const bodyOf = (status: number) => route.answerBodies?.[status] ?? ownBody ?? (status < 400 ? SUCCESS_ENVELOPE : ERROR_ENVELOPE);
  const answered = { ...responses };
  for (const status of route.statuses ?? []) {
    if (status === 200) continue;
    const existing = answered[status];
    const body = bodyOf(status);
    const shown = existing?.content?.['application/json']?.schema;
    if (existing === undefined) answered[status] = withBody({ description: `${status}, as the route's configuration answers.` }, body);
    else if (shown !== undefined && JSON.stringify(shown) !== JSON.stringify(body)) answered[status] = withBody(existing, { anyOf: [shown, body] });
  }
  const success = route.answerBodies?.[200];
  if (route.statuses !== undefined && !route.statuses.includes(200) && route.templatedStatus !== true) delete answered[200];
  else if (success !== undefined) answered[200] = withBody(answered[200]!, success);
  else if (ownBody !== undefined) answered[200] = withBody(answered[200]!, { anyOf: [SUCCESS_ENVELOPE, ownBody] });
  if (route.templatedStatus === true)
    answered['default'] = withBody({ description: 'The status a template of the route gives (200 to 599).' }, route.answerBodies?.['default'] ?? {});
  return answered;
}

function configuredOperation(route: ConfiguredRoute, pathParameters: OpenApiParameter[]): OpenApiOperation {
  const category = route.category ?? 'gameplay';
  const auth = categoryAuth(category);
  const what = category === 'gameplay' ? 'A gameplay action' : category === 'read' ? 'An authenticated read' : 'A public read';
  const query = (route.query ?? []).map((name): OpenApiParameter => ({ name, in: 'query', required: false, schema: { type: 'string' } }));
  const parameters = [...pathParameters, ...query];
  const readsBody = route.method !== 'GET';
  return {
    operationId: urlSafeId('configured', route.method.toLowerCase(), route.path),
    tags: [CONFIGURED_TAG.name],
    summary: `${what} from the mock's configuration${route.source === undefined ? '' : ` (${route.source})`}`,
    description: rateLimitSentence(category),
    'x-mock-defined': true,
    ...(parameters.length === 0 ? {} : { parameters }),
    security: auth === 'none' ? [] : bearer,
    ...(readsBody ? { requestBody: configuredBody(route.bodyFields ?? []) } : {}),
    responses: configuredResponses(
      route,
      operationResponses(
        {
          category,
          auth,
          readsBody,
          ...(route.notFoundWhenUnmatched === true ? { notFound: 'No answer of the route matches what the request sent.' } : {}),
        },
        { description: 'OK: `{success: true}` and the configured fields.', schema: SUCCESS_ENVELOPE },
      ),
    ),
    'x-rate-limit': rateLimit(category),
  };
}

function describeApi(variants: DocumentedVariants): string {
  const played =
    variants.described.length === 0
      ? []
      : [`This mock plays variants, legal choices where the spec is silent (\`--variant\`; docs/variants.md):\n\n${variants.described.join('\n')}`];
  return [
    'The JSON-over-HTTP API of the game service, generated from the contract the mock and the conformance suite share.',
    `Sign in: POST ${pathOf('register')} sends a ${OTP_LENGTH}-digit code valid ${OTP_LIFETIME_MS / MINUTE_MS} minutes; POST ${pathOf('verifyEmail')}` +
      ` exchanges it for a token valid ${TOKEN_LIFETIME_MS / DAY_MS} days, sent as \`Authorization: Bearer <token>\`; there is no refresh.`,
    "`x-mock-defined: true` marks what the spec leaves open and the mock decides; the description beside it says what the mock does. Error messages are the mock's own wording.",
    'On any path: a path no route has answers 404, a method the path does not take 405, both counted in the public bucket' +
      ' (x-unrouted-responses: NotFound, MethodNotAllowed and TooManyRequests). HEAD is answered wherever GET is, as GET without the body.',
    'CORS: by default every page origin may read the answers (the mock can restrict it); only configured game origins are exempt from the buckets.' +
      ' A preflight (OPTIONS with Access-Control-Request-Method, or any OPTIONS from an origin let through) answers 204 on every path, before authentication, routing and counting.',
    ...played,
  ].join('\n\n');
}

const SCHEMA_REF = /"#\/components\/schemas\/([^"]+)"/g;

/** The component schemas `parts` refer to, and those these refer to in turn: a ship payload no variant reads is left out. */
function usedSchemas(parts: readonly unknown[], schemas: Readonly<Record<string, JsonSchema>>): Record<string, JsonSchema> {
  const used: Record<string, JsonSchema> = {};
  const pending = parts.map((part) => JSON.stringify(part));
  for (let text = pending.pop(); text !== undefined; text = pending.pop()) {
    for (const [, name = ''] of text.matchAll(SCHEMA_REF)) {
      const schema = schemas[name];
      if (schema === undefined || name in used) continue;
      used[name] = schema;
      pending.push(JSON.stringify(schema));
    }
  }
  return used;
}

const REQUEST_ID: JsonSchema = {
  type: 'object',
  required: ['requestId'],
  properties: {
    requestId: { type: 'string', format: 'uuid', description: 'Variant extra-body-fields: a field the spec does not show, on every JSON object answered.' },
  },
};

/**
 * A body that, when an object, carries a `requestId` too: each of its alternatives, which a strict reader closes one
 * by one. A component is an object; a body of a route's own that is no object, or any JSON value, is left as it is.
 */
function bodyWithRequestId(schema: JsonSchema): JsonSchema {
  const alternatives = schema['anyOf'];
  if (Array.isArray(alternatives)) return { anyOf: alternatives.map((alternative: JsonSchema) => bodyWithRequestId(alternative)) };
  return schema['$ref'] !== undefined || schema['type'] === 'object' ? { allOf: [schema, REQUEST_ID] } : schema;
}

/** A response whose JSON body, when an object, carries a `requestId` too (variant extra-body-fields). */
function withRequestId(response: OpenApiResponse): OpenApiResponse {
  const json = response.content?.['application/json'];
  return json === undefined
    ? response
    : { ...response, content: { ...response.content, 'application/json': { ...json, schema: bodyWithRequestId(json.schema) } } };
}

/** Every operation of `paths` with each response carrying a `requestId`. */
function withRequestIds(paths: OpenApiDocument['paths']): void {
  for (const item of Object.values(paths)) {
    for (const [method, operation] of Object.entries(item) as [OpenApiMethod, OpenApiOperation][]) {
      item[method] = {
        ...operation,
        responses: Object.fromEntries(Object.entries(operation.responses).map(([status, response]) => [status, withRequestId(response)])),
      };
    }
  }
}

/** The OpenAPI 3.1 document of the spec's API, with what a mock adds when it gives its own routes. */
export function openApiDocument(options: OpenApiOptions): OpenApiDocument {
  const configuredRoutes = options.configuredRoutes ?? [];
  const controlRoutes = options.controlRoutes ?? [];
  const paths: OpenApiDocument['paths'] = {};
  const add = (path: string, method: string, operation: OpenApiOperation) => {
    paths[path] = { ...paths[path], [method.toLowerCase() as OpenApiMethod]: operation };
  };
  const variants = documentedVariants(options.variants ?? []);
  for (const route of ROUTES) {
    const operation = specOperation(route, options.shipPayload ?? 'any', variants);
    add(route.path, route.method, operation);
    if (route.id === 'health' && variants.healthAnyMethod)
      for (const method of OTHER_HEALTH_METHODS) add(route.path, method, { ...operation, operationId: `health.${method}`, 'x-mock-defined': true });
  }
  if (options.mockRoutes === true) for (const route of MOCK_ROUTES) add(route.path, route.method, shipReadOperation(route));
  for (const route of configuredRoutes) {
    const { path, parameters } = templatePath(route.path);
    add(path, route.method, configuredOperation(route, parameters));
  }
  const { faultStatuses } = options;
  if (faultStatuses !== undefined) {
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(item) as [OpenApiMethod, OpenApiOperation][]) {
        const statuses = faultStatuses(method.toUpperCase(), path);
        if (statuses.length > 0) item[method] = { ...operation, responses: withInjectedStatuses(operation.responses, statuses) };
      }
    }
  }
  // Before the control API's: its answers carry no `requestId`.
  if (variants.extraBodyFields) withRequestIds(paths);
  for (const route of controlRoutes) {
    const { path, parameters } = templatePath(route.path);
    add(path, route.method, controlOperation(route, parameters));
  }
  const unrouted = { ...UNROUTED_RESPONSES, ...(variants.authBeforeRouting ? { Unauthorized: UNROUTED_UNAUTHORIZED } : {}) };
  const unroutedResponses = variants.extraBodyFields
    ? Object.fromEntries(Object.entries(unrouted).map(([name, response]) => [name, withRequestId(response)]))
    : unrouted;
  const schemas = componentSchemas({ shipPayload: options.shipPayload ?? 'any', ship: options.shipFields, player: options.playerFields });
  return {
    openapi: '3.1.0',
    info: { title: 'Game Service API', version: options.version, description: describeApi(variants), license: { name: 'MIT', identifier: 'MIT' } },
    // Relative: the API is at the origin that serves this document, whatever its host and port.
    servers: [{ url: '/', description: 'The mock that serves this document' }],
    tags: [API_TAG, ...(configuredRoutes.length > 0 ? [CONFIGURED_TAG] : []), ...(controlRoutes.length > 0 ? [CONTROL_TAG] : [])],
    paths,
    // Not components: no operation refers to them, and a linter reports unused components.
    'x-unrouted-responses': unroutedResponses,
    components: {
      schemas: usedSchemas([paths, unroutedResponses], schemas),
      headers: componentHeaders(variants.headerUnits),
      securitySchemes: {
        [BEARER_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: verifyEmailResponseSchema.properties.authToken.format,
          description: `The authToken of POST ${pathOf('verifyEmail')}, valid ${TOKEN_LIFETIME_MS / DAY_MS} days.`,
        },
      },
    },
  };
}
