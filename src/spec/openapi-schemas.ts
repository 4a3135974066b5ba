import type { JsonSchema, ResourceFields } from './openapi-types.js';
import type { RouteId } from './routes.js';
import { MAX_SHIP_NAME_LENGTH } from './limits.js';
import * as specSchemas from './schemas.js';

/** `error-envelope` → `ErrorEnvelope`: component names come from each schema's `$id`. */
function componentName(id: string): string {
  return id
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

export function schemaRef(schema: { readonly $id: string }): JsonSchema {
  return { $ref: `#/components/schemas/${componentName(schema.$id)}` };
}

const MOCK_DEFINED = { 'x-mock-defined': true } as const;

/** The ship's and player's components, which each document builds from its configuration (shipSchema, playerSchema). */
const shipRef = schemaRef({ $id: 'ship' });
const playerRef = schemaRef({ $id: 'player' });

const MOCK_OWN_SHIP_FIELDS = {
  id: { type: 'string', format: 'uuid' },
  name: { type: 'string', minLength: 1 },
  createdAt: { type: 'string', format: 'date-time' },
} as const;

const MOCK_OWN_PLAYER_FIELDS = {
  id: { type: 'string', format: 'uuid' },
  email: { type: 'string', description: 'The registered address, trimmed and lower-cased.' },
  emailVerified: { type: 'boolean' },
  createdAt: { type: 'string', format: 'date-time' },
  actionPoints: { type: 'integer', minimum: 0 },
  maxActionPoints: { type: 'integer', minimum: 0 },
  ship: { anyOf: [shipRef, { type: 'null' }] },
} as const;

/** Fields the control API (`POST /__mock/players`), a world or a route's handler may give a resource at run time: no configuration names them. */
const FIELDS_GIVEN_AT_RUN_TIME = 'Any field the control API, a world or a route handler gave, as given.';

/** The ship as the mock answers it: the creation payload's fields, the configured ones over them, and the mock's own. */
function shipSchema(payload: ShipPayloadReading, configured: ResourceFields | undefined): JsonSchema {
  const kept = KEPT_PAYLOAD_FIELDS[payload];
  return {
    ...MOCK_DEFINED,
    description:
      "The spec does not show the ship resource; the mock answers with every field of the creation payload, the configuration's `ship` fields over them, and its own id, name and createdAt over both.",
    type: 'object',
    required: [...Object.keys(MOCK_OWN_SHIP_FIELDS), ...(configured?.required ?? [])],
    properties: { ...kept, ...configured?.properties, ...MOCK_OWN_SHIP_FIELDS },
    additionalProperties: { description: `Any other field of the creation payload, kept as given. ${FIELDS_GIVEN_AT_RUN_TIME}` },
  };
}

/** The player as the mock answers it: its own fields, and the configuration's `player` fields beside them. */
function playerSchema(configured: ResourceFields | undefined): JsonSchema {
  return {
    ...MOCK_DEFINED,
    description: "The spec does not show the player resource; the mock answers with these fields, the configuration's `player` fields among them.",
    type: 'object',
    required: [...Object.keys(MOCK_OWN_PLAYER_FIELDS), ...(configured?.required ?? [])],
    properties: { ...configured?.properties, ...MOCK_OWN_PLAYER_FIELDS },
    additionalProperties: { description: FIELDS_GIVEN_AT_RUN_TIME },
  };
}

const playerResponseSchema = {
  $id: 'player-response',
  ...MOCK_DEFINED,
  description: 'The success envelope with the player under `player` (spec rule 3 leaves the fields open).',
  allOf: [schemaRef(specSchemas.successEnvelopeSchema), { type: 'object', required: ['player'], properties: { player: playerRef } }],
} as const;

const STRICT_SHIP_NAME = {
  type: 'string',
  maxLength: MAX_SHIP_NAME_LENGTH,
  pattern: '\\S',
  description: `At most ${MAX_SHIP_NAME_LENGTH} characters (UTF-16 code units, so fewer outside the Basic Multilingual Plane), not only white space; stored trimmed.`,
} as const;

const shipCreationRequestSchema = {
  $id: 'ship-creation-request',
  ...MOCK_DEFINED,
  description: 'The spec does not show the ship creation payload: the mock takes any JSON object and keeps every field on the ship.',
  type: 'object',
  properties: {
    name: { description: "The ship's name when it is text that is not only white space (stored trimmed)." },
    shipName: { description: 'The name, when `name` gives none. With neither, the mock names the ship.' },
  },
} as const;

const shipNameRequestSchema = {
  $id: 'ship-name-request',
  ...MOCK_DEFINED,
  description: 'The ship creation payload of the variant ship-payload-name: a name, checked after the verification check.',
  type: 'object',
  required: ['name'],
  properties: { name: STRICT_SHIP_NAME },
} as const;

const shipGalaxyRequestSchema = {
  $id: 'ship-galaxy-request',
  ...MOCK_DEFINED,
  description: "The ship creation payload of the variant ship-payload-galaxy (the public deployment's), checked before the verification check.",
  type: 'object',
  required: ['galaxyId', 'shipName'],
  properties: {
    galaxyId: {
      anyOf: [
        { type: 'integer', minimum: 0 },
        { type: 'string', pattern: '^[\\w-]{1,64}$' },
      ],
    },
    shipName: STRICT_SHIP_NAME,
  },
} as const;

/** The ship creation payload the mock reads, by the variant it plays. */
export const SHIP_PAYLOAD_SCHEMAS = {
  any: schemaRef(shipCreationRequestSchema),
  name: schemaRef(shipNameRequestSchema),
  galaxy: schemaRef(shipGalaxyRequestSchema),
} as const;

export type ShipPayloadReading = keyof typeof SHIP_PAYLOAD_SCHEMAS;

/** The fields of the creation payload each reading names, as the ship keeps them (none required: a world's ship had no payload). */
const KEPT_PAYLOAD_FIELDS: Record<ShipPayloadReading, Readonly<Record<string, JsonSchema>>> = {
  any: { shipName: { description: 'As the creation payload gave it, any JSON value.' } },
  name: {},
  galaxy: shipGalaxyRequestSchema.properties,
};

/** /health's answer where the mock adds `success` (unless it plays variant health-without-success). */
const mockHealthResponseSchema = {
  $id: 'mock-health-response',
  ...MOCK_DEFINED,
  description: 'The health answer with `success: true`, which the mock adds.',
  type: 'object',
  required: [...specSchemas.healthResponseSchema.required, 'success'],
  properties: { ...specSchemas.healthResponseSchema.properties, success: { const: true } },
} as const;

const shipCreationResponseSchema = {
  $id: 'ship-creation-response',
  ...MOCK_DEFINED,
  description: 'The success envelope with the new ship under `ship` (spec rule 4 leaves the payload open).',
  allOf: [schemaRef(specSchemas.successEnvelopeSchema), { type: 'object', required: ['ship'], properties: { ship: shipRef } }],
} as const;

/** What a mock's configuration makes of its resources' schemas. */
export interface ResourceSchemas {
  shipPayload: ShipPayloadReading;
  ship?: ResourceFields | undefined;
  player?: ResourceFields | undefined;
}

/** Every schema of the document by component name: those of the spec, then the mock's own, its resources as configured. */
export function componentSchemas(resources: ResourceSchemas): Readonly<Record<string, JsonSchema>> {
  const fixed = [
    ...Object.values(specSchemas),
    mockHealthResponseSchema,
    playerResponseSchema,
    shipCreationRequestSchema,
    shipNameRequestSchema,
    shipGalaxyRequestSchema,
    shipCreationResponseSchema,
  ].map(({ $id, ...schema }): [string, JsonSchema] => [componentName($id), schema]);
  return Object.fromEntries([
    ...fixed,
    [componentName('ship'), shipSchema(resources.shipPayload, resources.ship)],
    [componentName('player'), playerSchema(resources.player)],
  ]);
}

export const ERROR_ENVELOPE = schemaRef(specSchemas.errorEnvelopeSchema);
export const SUCCESS_ENVELOPE = schemaRef(specSchemas.successEnvelopeSchema);
export const MOCK_HEALTH_RESPONSE = schemaRef(mockHealthResponseSchema);
export const SHIP = shipRef;
export const PLAYER = playerRef;

/** What a route's handler answers with success: `success: true` and the fields its code gives, which no document knows. */
export const HANDLER_SUCCESS: JsonSchema = {
  type: 'object',
  required: ['success'],
  properties: { success: { const: true } },
  additionalProperties: { description: "A field the route's handler answered with." },
};

/** The body each spec route takes and answers with on success. */
export const ROUTE_BODIES: Readonly<Record<RouteId, { request?: JsonSchema; response: JsonSchema }>> = {
  health: { response: schemaRef(specSchemas.healthResponseSchema) },
  register: { request: schemaRef(specSchemas.registerRequestSchema), response: schemaRef(specSchemas.registerResponseSchema) },
  verifyEmail: { request: schemaRef(specSchemas.verifyEmailRequestSchema), response: schemaRef(specSchemas.verifyEmailResponseSchema) },
  getPlayer: { response: schemaRef(playerResponseSchema) },
  createShip: { request: schemaRef(shipCreationRequestSchema), response: schemaRef(shipCreationResponseSchema) },
};

/** GET /api/player's answer where the mock plays variant player-fields-flat: the player's fields beside `success`. */
export const PLAYER_FIELDS_FLAT_RESPONSE: JsonSchema = {
  ...MOCK_DEFINED,
  description: 'The success envelope with the player fields beside `success` (variant player-fields-flat).',
  allOf: [schemaRef(specSchemas.successEnvelopeSchema), playerRef],
};

/** The answer of the mock's own GET /api/player/ship: the same envelope as the ship's creation. */
export const SHIP_READ_RESPONSE = schemaRef(shipCreationResponseSchema);
