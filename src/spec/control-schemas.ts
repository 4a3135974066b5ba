import type { SchemaValue } from './schema-value.js';

/** What a fault rule injects. */
export const FAULT_KINDS = ['status', 'latency', 'reset', 'truncate', 'rate-limit'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/**
 * A closed object schema whose properties are all required but those named in `optional`.
 * The one helper of the control API's schemas: the required list is then never out of step with the properties.
 */
export function objectSchema<const P extends Readonly<Record<string, object>>, const O extends keyof P & string = never>(
  properties: P,
  optional: readonly O[] = [],
): { type: 'object'; additionalProperties: false; required: Exclude<keyof P & string, O>[]; properties: P } {
  const required = Object.keys(properties).filter((name) => !(optional as readonly string[]).includes(name)) as Exclude<keyof P & string, O>[];
  return { type: 'object', additionalProperties: false, required, properties };
}

const STRING = { type: 'string' } as const;
const DATE_TIME = { type: 'string', format: 'date-time' } as const;
export const COUNT = { type: 'integer', minimum: 0 } as const;
const NULLABLE_STRING = { type: ['string', 'null'] } as const;
const STRINGS = { type: 'array', items: STRING } as const;

export const CLOCK_STATE = objectSchema({ now: DATE_TIME, nowMs: { type: 'integer' }, frozen: { type: 'boolean' } });
export type ClockState = SchemaValue<typeof CLOCK_STATE>;

export const OUTBOX_MESSAGE = objectSchema({
  email: STRING,
  code: STRING,
  issuedAt: DATE_TIME,
  expiresAt: DATE_TIME,
  state: { type: 'string', enum: ['pending', 'used', 'voided', 'replaced', 'expired'] },
});
export type OutboxMessage = SchemaValue<typeof OUTBOX_MESSAGE>;

/** The ship keeps every field of its creation payload, and the user's fields, beside these. */
const SHIP = {
  type: 'object',
  additionalProperties: true,
  required: ['id', 'name', 'createdAt'],
  properties: { id: STRING, name: STRING, createdAt: DATE_TIME },
} as const;

/** The player as the mock keeps it, with the fields the user's `player` template, a world or routes gave beside these. */
export const CONTROL_PLAYER = {
  ...objectSchema({
    id: STRING,
    email: STRING,
    emailVerified: { type: 'boolean' },
    createdAt: DATE_TIME,
    actionPoints: COUNT,
    maxActionPoints: COUNT,
    ship: { anyOf: [SHIP, { type: 'null' }] },
    inEncounter: { type: 'boolean' },
  }),
  additionalProperties: true,
} as const;
export type ControlPlayer = SchemaValue<typeof CONTROL_PLAYER>;

export const SEEDED_PLAYER = objectSchema({ id: STRING, email: STRING, authToken: STRING, expiresAt: DATE_TIME });
export type SeededPlayer = SchemaValue<typeof SEEDED_PLAYER>;

export const RATE_LIMIT_BUCKET = objectSchema({
  category: STRING,
  /** The client IP, or the player id for the per-player categories. */
  key: STRING,
  count: COUNT,
  limit: COUNT,
  remaining: COUNT,
  resetAt: DATE_TIME,
});
export type RateLimitBucket = SchemaValue<typeof RATE_LIMIT_BUCKET>;

export const JOURNAL_ENTRY = objectSchema({
  at: DATE_TIME,
  method: STRING,
  path: STRING,
  status: { type: 'integer' },
  category: NULLABLE_STRING,
  ip: STRING,
  origin: NULLABLE_STRING,
  route: NULLABLE_STRING,
  unknownFields: { anyOf: [STRINGS, { type: 'null' }] },
  playerId: NULLABLE_STRING,
  fault: { anyOf: [STRINGS, { type: 'null' }] },
  /** The recorded values of the answer a configured route gave in place of one for this request (X-Mock-Generalised); null when none. */
  generalisedFrom: NULLABLE_STRING,
  /** The request's headers as sent, credentials masked; empty once the journal let go of the oldest requests. */
  requestHeaders: { type: 'object', additionalProperties: STRING },
  /** The request's body as text, codes and tokens masked, cut after 4 KiB; null without one. */
  requestBody: NULLABLE_STRING,
});
export type JournalEntryView = SchemaValue<typeof JOURNAL_ENTRY>;

export const FAULT_RULE = objectSchema(
  {
    id: STRING,
    text: STRING,
    kind: { type: 'string', enum: FAULT_KINDS },
    method: STRING,
    path: STRING,
    probability: { type: 'number', minimum: 0, maximum: 1 },
    status: { type: 'integer' },
    minMs: COUNT,
    maxMs: COUNT,
  },
  ['status', 'minMs', 'maxMs'],
);
export type FaultRuleView = SchemaValue<typeof FAULT_RULE>;

export const VARIANTS_STATE = objectSchema(
  {
    variants: STRINGS,
    seed: COUNT,
    choices: {
      type: 'array',
      items: objectSchema({
        choice: STRING,
        sentence: STRING,
        default: STRING,
        variants: { type: 'array', items: objectSchema({ name: STRING, does: STRING }) },
      }),
    },
  },
  ['seed'],
);
export type VariantsState = SchemaValue<typeof VARIANTS_STATE>;

export const ROUTE_LISTING = objectSchema(
  {
    /** What the journal's `route` names. */
    id: STRING,
    method: STRING,
    path: STRING,
    category: STRING,
    auth: STRING,
    /** Action points spent on success; null outside the gameplay category. */
    cost: { type: ['integer', 'null'] },
    /** spec, mock, config, or a handler's module and export. */
    source: STRING,
    /** A configured route with answers: the requests none held for, each answered from the recorded answer `from`. */
    generalised: {
      type: 'array',
      items: objectSchema({ request: STRING, from: STRING, times: COUNT }),
    },
  },
  ['generalised'],
);
export type RouteListing = SchemaValue<typeof ROUTE_LISTING>;

export const SCENARIO_LISTING = objectSchema({ name: STRING, summary: STRING, parameters: STRINGS });
export type ScenarioListing = SchemaValue<typeof SCENARIO_LISTING>;

/** A control route as capabilities lists it; `:name` segments of its path are parameters. */
export const CONTROL_ROUTE_SUMMARY = objectSchema(
  {
    method: { type: 'string', enum: ['GET', 'POST', 'PUT', 'DELETE'] },
    path: STRING,
    summary: STRING,
    /** The media type of its answer when it is not JSON (the dashboard's HTML, an event stream). */
    contentType: STRING,
  },
  ['contentType'],
);
export type ControlRouteSummary = SchemaValue<typeof CONTROL_ROUTE_SUMMARY>;

export const CAPABILITIES = objectSchema({
  service: STRING,
  version: STRING,
  capabilities: objectSchema({
    clockControl: { type: 'boolean' },
    outbox: { type: 'boolean' },
    players: { type: 'boolean' },
    buckets: { type: 'boolean' },
    journal: { type: 'boolean' },
    journalCount: { type: 'boolean' },
    faults: { type: 'boolean' },
    worlds: { type: 'boolean' },
    scenarios: STRINGS,
    variants: STRINGS,
  }),
  gameOrigins: STRINGS,
  /** The variants played now. */
  variants: STRINGS,
  routes: { type: 'array', items: CONTROL_ROUTE_SUMMARY },
});
export type ControlCapabilities = SchemaValue<typeof CAPABILITIES>;
