import { ERROR_ENVELOPE, PLAYER, SHIP, SUCCESS_ENVELOPE } from '../../spec/openapi-schemas.js';
import type { JsonSchema, ResourceFields } from '../../spec/openapi-types.js';
import type { ResourceKind } from '../user-routes/resource-templates.js';
import type { RouteAnswerTemplates, UserRoute, UserRouteCategory } from '../user-routes/user-route.js';

/**
 * The JSON Schemas of what a mock's templates give, for its OpenAPI document: a literal's own type, a placeholder's
 * the type of what it reads where the mock knows it (its clock, counter, path parameters, its own fields of the
 * player and ship), any JSON value where the request or a route's state decides.
 */

const ANY: JsonSchema = {};
const NULL: JsonSchema = { type: 'null' };
const STRING: JsonSchema = { type: 'string' };
const DATE_TIME: JsonSchema = { type: 'string', format: 'date-time' };
const COUNT: JsonSchema = { type: 'integer', minimum: 0 };

/** What a read gives where it reaches a value, and whether it always does (else the placeholder falls back, at last to null). */
interface Read {
  schema: JsonSchema;
  alwaysReached: boolean;
}

/** The reads whose type the mock decides; a signed-in caller's player always exists, their ship may not. */
const KNOWN_READS: Readonly<Record<string, Read>> = {
  now: { schema: DATE_TIME, alwaysReached: true },
  counter: { schema: { type: 'integer', minimum: 1 }, alwaysReached: true },
  player: { schema: PLAYER, alwaysReached: true },
  'player.id': { schema: { type: 'string', format: 'uuid' }, alwaysReached: true },
  'player.email': { schema: STRING, alwaysReached: true },
  'player.emailVerified': { schema: { type: 'boolean' }, alwaysReached: true },
  'player.createdAt': { schema: DATE_TIME, alwaysReached: true },
  'player.actionPoints': { schema: COUNT, alwaysReached: true },
  'player.maxActionPoints': { schema: COUNT, alwaysReached: true },
  ship: { schema: SHIP, alwaysReached: false },
  'ship.id': { schema: { type: 'string', format: 'uuid' }, alwaysReached: false },
  'ship.name': { schema: STRING, alwaysReached: false },
  'ship.createdAt': { schema: DATE_TIME, alwaysReached: false },
};

/** Whether the caller is signed in, so that `{{player…}}` reaches their player. */
interface Reading {
  signedIn: boolean;
}

function readOf(path: string, { signedIn }: Reading): Read {
  const root = path.split('.')[0];
  if (!signedIn && (root === 'player' || root === 'ship')) return { schema: NULL, alwaysReached: false };
  // A path parameter is always there, as text; a query parameter is text where it is sent.
  if (root === 'params') return { schema: STRING, alwaysReached: true };
  if (root === 'query') return { schema: STRING, alwaysReached: false };
  return KNOWN_READS[path] ?? { schema: ANY, alwaysReached: false };
}

/** The schema any of `schemas` validates: the same ones once, any JSON value if one of them is. */
export function unionOf(schemas: readonly JsonSchema[]): JsonSchema {
  const distinct = new Map<string, JsonSchema>();
  for (const schema of schemas.flatMap((one) => (Array.isArray(one['anyOf']) ? (one['anyOf'] as JsonSchema[]) : [one]))) {
    distinct.set(JSON.stringify(schema), schema);
  }
  if (distinct.has(JSON.stringify(ANY))) return ANY;
  const [only, ...more] = distinct.values();
  return more.length === 0 ? (only ?? ANY) : { anyOf: [...distinct.values()] };
}

const PATH = /^[A-Za-z_$][\w$]*(?:\.[\w$-]+)*$/;

/** `{{a.b ?? c ?? 1}}`: the first that reaches a value, or null when none does. */
function expressionSchema(expression: string, reading: Reading): JsonSchema {
  const reached: JsonSchema[] = [];
  for (const part of expression.split('??').map((text) => text.trim())) {
    const read: Read = PATH.test(part) && !['true', 'false', 'null'].includes(part) ? readOf(part, reading) : literalRead(part);
    reached.push(read.schema);
    if (read.alwaysReached) return unionOf(reached);
  }
  return unionOf([...reached, NULL]);
}

function literalRead(text: string): Read {
  const value: unknown = JSON.parse(text);
  return { schema: templateSchema(value, { signedIn: false }), alwaysReached: value !== null };
}

const WHOLE_PLACEHOLDER = /^\{\{([^}]*)\}\}$/;

/** The schema of what a template value gives: a string that is one placeholder takes the type of what it reads. */
export function templateSchema(value: unknown, reading: Reading): JsonSchema {
  if (typeof value === 'string') {
    const whole = WHOLE_PLACEHOLDER.exec(value);
    return whole === null ? STRING : expressionSchema(whole[1]!, reading);
  }
  if (typeof value === 'number') return { type: Number.isInteger(value) ? 'integer' : 'number' };
  if (typeof value === 'boolean') return { type: 'boolean' };
  if (value === null) return NULL;
  if (Array.isArray(value))
    return value.length === 0 ? { type: 'array' } : { type: 'array', items: unionOf(value.map((item) => templateSchema(item, reading))) };
  return objectSchema(value as Readonly<Record<string, unknown>>, reading);
}

/** An object whose every field is there, each of its template's type; `under` the fields its template gives over, `over` those over it. */
function objectSchema(
  fields: Readonly<Record<string, unknown>>,
  reading: Reading,
  { under = {}, over = {} }: { under?: Readonly<Record<string, JsonSchema>>; over?: Readonly<Record<string, JsonSchema>> } = {},
): JsonSchema {
  const properties = { ...under, ...Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, templateSchema(value, reading)])), ...over };
  return { type: 'object', required: Object.keys(properties), properties };
}

/** The answers a template route gives: its own (where it has one) and each of its `answers`. */
function answering(route: UserRoute): readonly RouteAnswerTemplates[] {
  const answers = route.answers ?? [];
  const ownTemplates = route.status !== undefined || route.response !== undefined || route.body !== undefined;
  return answers.length === 0 || ownTemplates ? [route, ...answers] : answers;
}

/** An answer's status, or `default` where a template gives it. */
function statusKey(status: RouteAnswerTemplates['status']): string {
  if (status === undefined) return '200';
  return typeof status === 'number' || /^\d{3}$/.test(status) ? String(status) : 'default';
}

/** The body an answer gives: its whole `body`, or its `response` fields in the success envelope, or beside `error` from 400 on. */
function answerBodies(answer: RouteAnswerTemplates, status: string, reading: Reading): JsonSchema[] {
  if (answer.body !== undefined) return [templateSchema(answer.body, reading)];
  const fields = answer.response ?? {};
  const empty = Object.keys(fields).length === 0;
  const success = () => (empty ? SUCCESS_ENVELOPE : objectSchema(fields, reading, { over: { success: { const: true } } }));
  const refusal = () => (empty ? ERROR_ENVELOPE : objectSchema(fields, reading, { under: { error: { type: 'string', minLength: 1 } } }));
  if (status === 'default') return [success(), refusal()];
  return Number(status) < 400 ? [success()] : [refusal()];
}

/** The body a template route answers with each status it gives (`default`: a status a template gives). */
export function routeAnswerBodies(route: UserRoute, category: UserRouteCategory): Record<string, JsonSchema> {
  const reading = { signedIn: category !== 'public' };
  const bodies: Record<string, JsonSchema[]> = {};
  for (const answer of answering(route)) {
    const status = statusKey(answer.status);
    bodies[status] = [...(bodies[status] ?? []), ...answerBodies(answer, status, reading)];
  }
  return Object.fromEntries(Object.entries(bodies).map(([status, schemas]) => [status, unionOf(schemas)]));
}

/**
 * The fields a configuration gives each ship or player: its template's, on every one, and those its template routes
 * write, once a route has; each field of every type it may take.
 */
export function configuredFields(
  kind: ResourceKind,
  template: Readonly<Record<string, unknown>> | undefined,
  routes: readonly { definition: UserRoute; category: UserRouteCategory }[],
): ResourceFields | undefined {
  const schemas = new Map<string, JsonSchema[]>();
  const add = (fields: Readonly<Record<string, unknown>> | undefined, reading: Reading) => {
    for (const [key, value] of Object.entries(fields ?? {})) schemas.set(key, [...(schemas.get(key) ?? []), templateSchema(value, reading)]);
  };
  add(template, { signedIn: true });
  for (const { definition, category } of routes) {
    if (definition.handler !== undefined) continue;
    for (const answer of [definition, ...(definition.answers ?? [])]) add(answer[kind], { signedIn: category !== 'public' });
  }
  if (schemas.size === 0) return undefined;
  return {
    properties: Object.fromEntries([...schemas].map(([key, all]) => [key, unionOf(all)])),
    required: Object.keys(template ?? {}),
  };
}
