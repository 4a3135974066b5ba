import { writeFile } from 'node:fs/promises';
import { CONTROL_PREFIX } from '../../src/spec/control-routes.js';
import { MOCK_ROUTES, ROUTES } from '../../src/spec/routes.js';
import { type Exchange, isObject } from '../exchange.js';
import { answerTemplate, EmailPlaceholders } from './answer-template.js';
import { pointsSpent } from './points-spent.js';
import { type RouteParam, routePattern } from './route-pattern.js';
import { bearerToken, pathOf, type TrafficIdentities, trafficIdentities } from './traffic-identities.js';

/** Where `$schema` points by default: the schema the package ships, from a project that installed it. */
export const RECORDED_CONFIG_SCHEMA = './node_modules/game-service-harness/config.schema.json';

const ROUTE_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type RouteMethod = (typeof ROUTE_METHODS)[number];
export type RecordedCategory = 'read' | 'gameplay' | 'public';

/** A route of the mock's config file (docs/routes.md) answered from what the traffic showed. */
export interface RecordedRoute {
  method: RouteMethod;
  path: string;
  category: RecordedCategory;
  /** Gameplay only. */
  cost?: number;
  /** Left out when 200. */
  status?: number;
  response: Record<string, unknown>;
}

/** A config file for `game-service mock --config`. */
export interface RecordedConfig {
  $schema?: string;
  routes: RecordedRoute[];
}

export interface SkippedExchange {
  method: string;
  /** Without the query string. */
  path: string;
  reason: string;
}

export interface RouteRecording {
  config: RecordedConfig;
  /** Exchanges that gave no route, each with why. */
  skipped: SkippedExchange[];
  /** Where a route answers other than as recorded, or was guessed: one line each, starting with the route. */
  notes: string[];
}

export interface RecordOptions {
  /** `$schema` of the file; null leaves it out. Default RECORDED_CONFIG_SCHEMA. */
  schema?: string | null;
}

/** One exchange that gives a route, with what its route is made from. */
interface Sample {
  exchange: Exchange;
  token: string | undefined;
  params: readonly RouteParam[];
  body: Readonly<Record<string, unknown>>;
}

const SERVED_BY_THE_MOCK = new Map<string, string>([
  ...ROUTES.map((route) => [`${route.method} ${route.path}`, "a route of the spec's table, which the mock answers itself"] as const),
  ...MOCK_ROUTES.map((route) => [`${route.method} ${route.path}`, 'a route the mock serves itself'] as const),
]);

/** Answers the mock gives from its own state, whatever a route says. */
const MOCK_OWN_STATUS = new Map<number, string>([
  [401, 'answered 401: the mock checks tokens itself'],
  [429, 'answered 429: the mock counts its own rate limits'],
]);

const isRouteMethod = (method: string): method is RouteMethod => (ROUTE_METHODS as readonly string[]).includes(method);

/** The body a route gives back: the JSON object answered, or nothing for an empty 204. */
function recordedBody(exchange: Exchange): Readonly<Record<string, unknown>> | undefined {
  if (isObject(exchange.body)) return exchange.body;
  return exchange.status === 204 && exchange.text === '' ? {} : undefined;
}

/** The sample an exchange gives, or why it gives none. */
function sampleOf(exchange: Exchange, identities: TrafficIdentities): { sample: Sample; key: string; method: RouteMethod; path: string } | string {
  const path = pathOf(exchange);
  if (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)) return `the mock's control API (${CONTROL_PREFIX}), which every mock serves itself`;
  const served = SERVED_BY_THE_MOCK.get(`${exchange.method} ${path}`);
  if (served !== undefined) return served;
  if (!path.startsWith('/api/')) return 'not under /api/, where every route of a mock config is';
  const method = exchange.method;
  if (!isRouteMethod(method)) return `${method} is not a method of a mock route (${ROUTE_METHODS.join(', ')})`;
  const own = MOCK_OWN_STATUS.get(exchange.status);
  if (own !== undefined) return own;
  if (exchange.status < 200 || exchange.status > 599) return `answered ${exchange.status}, not a status of a mock route (200 to 599)`;
  const body = recordedBody(exchange);
  if (body === undefined) return 'its answer is not a JSON object, and a mock route answers one';
  const pattern = routePattern(path, identities.tokens);
  if (typeof pattern === 'string') return pattern;
  const sample = { exchange, token: bearerToken(exchange), params: pattern.params, body };
  return { sample, key: `${method} ${pattern.path}`, method, path: pattern.path };
}

/** Public when an answer came without a token; else by method, as the mock's default. */
function categoryOf(method: RouteMethod, samples: readonly Sample[]): RecordedCategory {
  const withoutToken = samples.filter((sample) => sample.token === undefined);
  if (withoutToken.length === samples.length || withoutToken.some((sample) => sample.exchange.status < 400)) return 'public';
  return method === 'GET' ? 'read' : 'gameplay';
}

/** The drop seen most often (a refill between two answers hides a point), the larger on a tie. */
function costOf(drops: readonly number[]): number | undefined {
  const counts = new Map<number, number>();
  for (const drop of drops) counts.set(drop, (counts.get(drop) ?? 0) + 1);
  return [...counts].sort(([dropA, countA], [dropB, countB]) => countB - countA || dropB - dropA)[0]?.[0];
}

/** JSON with sorted keys, so that two answers compare by content. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** What the mock adds to every answer of a route, which a recording without it cannot take back out. */
function envelopeNote(sample: Sample): string | undefined {
  const { status } = sample.exchange;
  if (status === 204) return undefined;
  if (status < 400 && sample.body['success'] !== true) return `answers "success": true, which the mock adds to every answer below 400`;
  if (status >= 400 && typeof sample.body['error'] !== 'string') return `answers an "error" field, which the mock adds to every answer of 400 or more`;
  return undefined;
}

interface RouteDraft {
  method: RouteMethod;
  path: string;
  samples: Sample[];
}

function recordRoute(draft: RouteDraft, identities: TrafficIdentities, emails: EmailPlaceholders, spent: ReadonlyMap<Exchange, number>) {
  const { method, path, samples } = draft;
  const id = `${method} ${path}`;
  const category = categoryOf(method, samples);
  const notes: string[] = [];
  if (category === 'public' && samples.some((sample) => sample.token !== undefined)) notes.push('answered without a token: recorded as public');
  const answers = samples.map((sample) => {
    const player = category === 'public' || sample.token === undefined ? undefined : identities.players.get(sample.token);
    const { status } = sample.exchange;
    // The mock sets success itself below 400; a recorded one is no field of the template.
    const { success: _success, ...fields } = sample.body;
    const body = status < 400 ? fields : sample.body;
    return { sample, status, ...answerTemplate(body, { params: sample.params, tokens: identities.tokens, player, emails }) };
  });
  const kept = answers.findLast((answer) => answer.status < 400) ?? answers.at(-1)!;
  const ways = new Set(answers.map((answer) => canonical([answer.status, answer.response]))).size;
  if (ways > 1) {
    const which = kept.status < 400 && answers.some((answer) => answer.status >= 400) ? 'last successful' : 'last';
    notes.push(
      `${answers.length} recordings answered ${ways} different ways; kept the ${which} one (the ${kept.status} answered to ${pathOf(kept.sample.exchange)})`,
    );
  }
  notes.push(...kept.notes);
  const envelope = envelopeNote(kept.sample);
  if (envelope !== undefined) notes.push(envelope);
  let cost: number | undefined;
  if (category === 'gameplay') {
    cost = costOf(samples.flatMap((sample) => spent.get(sample.exchange) ?? []));
    if (cost === undefined) notes.push('costs 1 action point: no answer showed the points it spent');
    cost ??= 1;
  }
  const route: RecordedRoute = {
    method,
    path,
    category,
    ...(cost === undefined ? {} : { cost }),
    ...(kept.status === 200 ? {} : { status: kept.status }),
    response: kept.response,
  };
  return { route, notes: notes.map((note) => `${id}: ${note}`) };
}

/**
 * The answers of the routes beyond the spec's table, as the routes of a mock config file: each path's
 * numeric, UUID, email and token segments made parameters, recordings of one route merged when their answers
 * agree, tokens, addresses and codes redacted. The spec's routes, the control API, paths outside /api/ and
 * answers the mock makes itself (401, 429) are skipped, each with why.
 */
export function recordRoutes(exchanges: readonly Exchange[], options: RecordOptions = {}): RouteRecording {
  const answered = exchanges.toSorted((a, b) => a.receivedAt - b.receivedAt);
  const identities = trafficIdentities(answered);
  const spent = pointsSpent(answered);
  const drafts = new Map<string, RouteDraft>();
  const skipped: SkippedExchange[] = [];
  for (const exchange of answered) {
    const found = sampleOf(exchange, identities);
    if (typeof found === 'string') {
      skipped.push({ method: exchange.method, path: pathOf(exchange), reason: found });
      continue;
    }
    const draft = drafts.get(found.key) ?? { method: found.method, path: found.path, samples: [] };
    draft.samples.push(found.sample);
    drafts.set(found.key, draft);
  }
  const emails = new EmailPlaceholders();
  const recorded = [...drafts.values()].map((draft) => recordRoute(draft, identities, emails, spent));
  const schema = options.schema === undefined ? RECORDED_CONFIG_SCHEMA : options.schema;
  return {
    config: { ...(schema === null ? {} : { $schema: schema }), routes: recorded.map(({ route }) => route) },
    skipped,
    notes: recorded.flatMap(({ notes }) => notes),
  };
}

/** Writes a recording's config as `game-service mock --config` reads it: JSON, two spaces, a final newline. */
export async function writeRecordedRoutes(file: string, config: RecordedConfig): Promise<void> {
  await writeFile(file, `${JSON.stringify(config, null, 2)}\n`);
}
