import type { JSONSchemaType } from 'ajv';
import { CONTROL_ROUTES } from '../spec/control-routes.js';
import { publishedSchema } from './schema-document.js';
import { validator } from './validation.js';
import type { KnownWorldPlayer, World, WorldPlayer } from './world.js';

/** One player of a world; also the body of the control API's player creation. */
const knownPlayerSchema: JSONSchemaType<KnownWorldPlayer> = {
  type: 'object',
  required: ['email'],
  // The spec shows no field of the player or the ship: any other is the user's, and shown as given.
  additionalProperties: true,
  properties: {
    email: { type: 'string', pattern: '^\\s*[^@\\s]+@[^@\\s]+\\s*$', maxLength: 254 },
    emailVerified: { type: 'boolean', nullable: true },
    token: { type: 'string', pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$', nullable: true },
    actionPoints: { type: 'integer', minimum: 0, nullable: true },
    ship: {
      type: 'object',
      nullable: true,
      required: [],
      additionalProperties: true,
      properties: { name: { type: 'string', minLength: 1, maxLength: 32, nullable: true } },
    },
    inEncounter: { type: 'boolean', nullable: true },
  },
};

/** JSONSchemaType cannot say "these keys typed, and any other": the keys the mock reads are checked against their type above. */
export const worldPlayerSchema = knownPlayerSchema as JSONSchemaType<KnownWorldPlayer> as unknown as JSONSchemaType<WorldPlayer>;

/** The JSON Schema of a world file (fixtures/worlds/*.json, --world, the control API's world loading). */
export const worldSchema: JSONSchemaType<World> = {
  type: 'object',
  required: ['players'],
  additionalProperties: false,
  properties: {
    $schema: { type: 'string', nullable: true },
    description: { type: 'string', nullable: true },
    players: {
      type: 'array',
      items: worldPlayerSchema,
    },
  },
};

/** A world as parsed JSON, checked: the typed world, or a 400 naming the offending key. */
export const parseWorld = validator(worldSchema, 'world');

/** The published file's name, at the package root (fixtures refer to it with $schema). */
export const WORLD_SCHEMA_FILE = 'world.schema.json';

export function publishedWorldSchema(): string {
  return publishedSchema(
    worldSchema,
    'game-service mock world',
    `Players a mock starts with (--world, a config file's world key) or loads at run time (POST ${CONTROL_ROUTES.loadWorld.pattern}).`,
  );
}
