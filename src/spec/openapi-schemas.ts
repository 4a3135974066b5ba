import type { JsonSchema } from './openapi-types.js';
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

const shipSchema = {
  $id: 'ship',
  ...MOCK_DEFINED,
  description:
    'The spec does not show the ship resource; the mock answers with every field of the creation payload and these, which win over given ones of the same name.',
  type: 'object',
  required: ['id', 'name', 'createdAt'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    name: { type: 'string', minLength: 1 },
    createdAt: { type: 'string', format: 'date-time' },
  },
} as const;

const playerSchema = {
  $id: 'player',
  ...MOCK_DEFINED,
  description: 'The spec does not show the player resource; these are the fields the mock answers with.',
  type: 'object',
  required: ['id', 'email', 'emailVerified', 'createdAt', 'actionPoints', 'maxActionPoints', 'ship'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    email: { type: 'string', description: 'The registered address, trimmed and lower-cased.' },
    emailVerified: { type: 'boolean' },
    createdAt: { type: 'string', format: 'date-time' },
    actionPoints: { type: 'integer', minimum: 0 },
    maxActionPoints: { type: 'integer', minimum: 0 },
    ship: { anyOf: [schemaRef(shipSchema), { type: 'null' }] },
  },
} as const;

const playerResponseSchema = {
  $id: 'player-response',
  ...MOCK_DEFINED,
  description: 'The success envelope with the player under `player` (spec rule 3 leaves the fields open).',
  allOf: [schemaRef(specSchemas.successEnvelopeSchema), { type: 'object', required: ['player'], properties: { player: schemaRef(playerSchema) } }],
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

const shipCreationResponseSchema = {
  $id: 'ship-creation-response',
  ...MOCK_DEFINED,
  description: 'The success envelope with the new ship under `ship` (spec rule 4 leaves the payload open).',
  allOf: [schemaRef(specSchemas.successEnvelopeSchema), { type: 'object', required: ['ship'], properties: { ship: schemaRef(shipSchema) } }],
} as const;

/** Every schema of the document by component name: those of the spec, then the mock's own. */
export const COMPONENT_SCHEMAS: Readonly<Record<string, JsonSchema>> = Object.fromEntries(
  [
    ...Object.values(specSchemas),
    shipSchema,
    playerSchema,
    playerResponseSchema,
    shipCreationRequestSchema,
    shipNameRequestSchema,
    shipGalaxyRequestSchema,
    shipCreationResponseSchema,
  ].map(({ $id, ...schema }) => [componentName($id), schema]),
);

export const ERROR_ENVELOPE = schemaRef(specSchemas.errorEnvelopeSchema);
export const SUCCESS_ENVELOPE = schemaRef(specSchemas.successEnvelopeSchema);

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
  allOf: [schemaRef(specSchemas.successEnvelopeSchema), schemaRef(playerSchema)],
};

/** The answer of the mock's own GET /api/player/ship: the same envelope as the ship's creation. */
export const SHIP_READ_RESPONSE = schemaRef(shipCreationResponseSchema);
