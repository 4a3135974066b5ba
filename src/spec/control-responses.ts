import {
  CAPABILITIES,
  CLOCK_STATE,
  CONTROL_PLAYER,
  COUNT,
  FAULT_RULE,
  JOURNAL_ENTRY,
  OUTBOX_MESSAGE,
  objectSchema,
  RATE_LIMIT_BUCKET,
  ROUTE_LISTING,
  SCENARIO_LISTING,
  SEEDED_PLAYER,
  VARIANTS_STATE,
} from './control-schemas.js';
import { CONTROL_ROUTES, type ControlRouteKey, RESET_PARTS } from './control-routes.js';
import type { JsonSchema } from './openapi-types.js';
import type { SchemaValue } from './schema-value.js';

/** A page of a listing: its entries under `name`, and the cursor of the next page (null after the last). */
function page<const N extends string, const I extends object>(name: N, items: I) {
  return objectSchema({ [name]: { type: 'array', items }, nextCursor: { type: ['string', 'null'] } } as Record<N, { type: 'array'; items: I }> & {
    nextCursor: { type: readonly ['string', 'null'] };
  });
}

const REMOVED = objectSchema({ removed: COUNT });
const ONE_PLAYER = objectSchema({ player: CONTROL_PLAYER });

/**
 * What each control route answers on success, beside `success: true` (the data a handler returns); null for
 * the routes that answer another media type. Objects are closed: a field the server adds must be declared here.
 */
export const CONTROL_RESPONSES = {
  capabilities: CAPABILITIES,
  outbox: page('messages', OUTBOX_MESSAGE),
  reset: objectSchema({ reset: { type: 'array', items: { type: 'string', enum: RESET_PARTS } } }),
  loadWorld: objectSchema({ players: { type: 'array', items: SEEDED_PLAYER } }),
  buckets: page('buckets', RATE_LIMIT_BUCKET),
  clearBuckets: REMOVED,
  setBucket: objectSchema({ bucket: RATE_LIMIT_BUCKET }),
  clock: CLOCK_STATE,
  setClock: CLOCK_STATE,
  players: page('players', CONTROL_PLAYER),
  createPlayer: objectSchema({ player: CONTROL_PLAYER, authToken: { type: 'string' }, expiresAt: { type: 'string', format: 'date-time' } }),
  /** What went, by kind: a code counts once pending and once as its outbox message. */
  removePlayers: objectSchema({
    removed: objectSchema({ players: COUNT, tokens: COUNT, codes: COUNT, messages: COUNT, buckets: COUNT }),
  }),
  setActionPoints: ONE_PLAYER,
  startEncounter: ONE_PLAYER,
  endEncounter: ONE_PLAYER,
  scenarios: objectSchema({ scenarios: { type: 'array', items: SCENARIO_LISTING } }),
  /** The scenario's name, and what it changed: a bucket, a player, fault rules… by scenario. */
  applyScenario: { type: 'object', additionalProperties: true, required: ['scenario'], properties: { scenario: { type: 'string' } } },
  variants: VARIANTS_STATE,
  setVariants: VARIANTS_STATE,
  journal: page('entries', JOURNAL_ENTRY),
  removeJournal: REMOVED,
  journalStream: null,
  journalCount: objectSchema({ count: { type: 'integer', minimum: 0 } }),
  journalHar: {
    type: 'object',
    additionalProperties: true,
    description: 'A HAR 1.2 document, as it is: no success envelope around it.',
    required: ['log'],
    properties: {
      log: {
        type: 'object',
        additionalProperties: true,
        required: ['version', 'creator', 'entries'],
        properties: { version: { const: '1.2' }, creator: { type: 'object' }, entries: { type: 'array' } },
      },
    },
  },
  faults: objectSchema({ seed: { type: 'integer', minimum: 0 }, faults: { type: 'array', items: FAULT_RULE } }),
  addFault: objectSchema({ fault: FAULT_RULE }),
  clearFaults: REMOVED,
  removeFault: REMOVED,
  reseedFaults: objectSchema({ seed: { type: 'integer', minimum: 0 } }),
  routes: objectSchema({ routes: { type: 'array', items: ROUTE_LISTING } }),
  putRoute: objectSchema({ route: ROUTE_LISTING, replaced: { type: 'boolean' } }),
  removeRoute: objectSchema({ removed: ROUTE_LISTING }),
  dashboard: null,
  dashboardFile: null,
  openApi: { type: 'object', additionalProperties: true, description: 'This OpenAPI document, as it is: no success envelope around it.', properties: {} },
} as const satisfies Readonly<Record<ControlRouteKey, JsonSchema | null>>;

/** The routes that answer JSON. */
export type JsonControlRouteKey = { [K in ControlRouteKey]: (typeof CONTROL_RESPONSES)[K] extends null ? never : K }[ControlRouteKey];

/** What a route's handler returns: the data beside `success: true`. */
export type ControlResponse<K extends JsonControlRouteKey> = SchemaValue<(typeof CONTROL_RESPONSES)[K]>;

/** The body a client reads: the data with `success: true`, but for a bare document. */
export type ControlAnswer<K extends JsonControlRouteKey> = (typeof CONTROL_ROUTES)[K] extends { bare: true }
  ? ControlResponse<K>
  : ControlResponse<K> & { success: true };

/** The JSON Schema of the body a client reads, `success: true` included unless it is bare; undefined for content of another type. */
export function controlAnswerSchema(key: ControlRouteKey): JsonSchema | undefined {
  const schema: { required?: readonly string[]; properties: object } | null = CONTROL_RESPONSES[key];
  if (schema === null) return undefined;
  if ('bare' in CONTROL_ROUTES[key]) return schema;
  return { ...schema, required: ['success', ...(schema.required ?? [])], properties: { success: { const: true }, ...schema.properties } };
}
