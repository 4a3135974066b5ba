import { writeFile } from 'node:fs/promises';
import { CONTROL_PREFIX, isControlPath } from '../../src/spec/control-routes.js';
import { MOCK_ROUTES, ROUTES } from '../../src/spec/routes.js';
import { canonicalJson } from '../common/canonical-json.js';
import { type Exchange, isObject } from '../common/exchange.js';
import { alternativesOf, type AnswerCondition, echoedValues, MAX_ANSWERS_IN_ORDER, queryOf } from './answer-alternatives.js';
import { answerTemplate, EmailPlaceholders } from './answer-template.js';
import { counterFields, POINTS_TEMPLATE } from './counters.js';
import { PLAYER_FIELDS_OF_THE_MOCK, type ResourceCounters, resourceTemplates } from './resource-templates.js';
import { answeredShip, fieldsWritten, MOCK_OWN_SHIP_FIELDS, requestFields, type Ship, shipsAfter, shipsBefore, withoutSuccess } from './ship-state.js';
import { pointsSpent } from './points-spent.js';
import { recordSession } from './record-session.js';
import type { RecordedRequest } from '../../src/spec/recorded-session.js';
import { echoesOf, trustedEchoes, withEchoes, withShipMarked, withShipTemplates } from './request-echoes.js';
import { type RouteParam, routePattern } from './route-pattern.js';
import { answeredPlayer, bearerToken, pathOf, type TrafficIdentities, trafficIdentities } from './traffic-identities.js';

/** Where `$schema` points by default: the schema the package ships, from a project that installed it. */
export const RECORDED_CONFIG_SCHEMA = './node_modules/game-service-harness/config.schema.json';

const ROUTE_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type RouteMethod = (typeof ROUTE_METHODS)[number];
export type RecordedCategory = 'read' | 'gameplay' | 'public';

/**
 * One answer as recorded: `response` where the mock's envelope gives it back exactly (it adds `success: true`
 * below 400, and an error answer's `error` replaces its own), else `body`, the whole answer sent as it is.
 */
export interface RecordedBody {
  response?: Record<string, unknown>;
  body?: unknown;
}

/** An answer of a route among others: for the requests `when` matches, in the order they came. */
export interface RecordedAnswer extends RecordedBody {
  when?: AnswerCondition;
  /** Left out when 200. */
  status?: number;
}

/** A route of the mock's config file (docs/routes.md) answered from what the traffic showed: one answer, or `answers`. */
export interface RecordedRoute extends RecordedAnswer {
  method: RouteMethod;
  path: string;
  category: RecordedCategory;
  /** Gameplay only. */
  cost?: number;
  /**
   * Fields of the caller's ship a success writes from the request's body (`{"current_sector": "{{body.sectorId}}"}`),
   * and, on gameplay, its counters of the action points (`{"turns": "{{player.actionPoints}}"}`).
   */
  ship?: Record<string, string>;
  /** Gameplay: the player's counters of the action points, written with the points a success leaves. */
  player?: Record<string, string>;
  answers?: RecordedAnswer[];
}

/** A config file for `game-service mock --config`. */
export interface RecordedConfig {
  $schema?: string;
  /** The ship the server answered, as the template of every ship the mock creates. */
  ship?: Record<string, unknown>;
  /** The player the server answered (GET /api/player), as the template of every player the mock creates. */
  player?: Record<string, unknown>;
  routes: RecordedRoute[];
  /** The client's requests in order, with their answers' shapes: what `check --recording` sends again and compares. */
  session?: RecordedRequest[];
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
function answeredBody(exchange: Exchange): Readonly<Record<string, unknown>> | undefined {
  if (isObject(exchange.body)) return exchange.body;
  return exchange.status === 204 && exchange.text === '' ? {} : undefined;
}

/** The sample an exchange gives, or why it gives none. */
function sampleOf(exchange: Exchange, identities: TrafficIdentities): { sample: Sample; key: string; method: RouteMethod; path: string } | string {
  const path = pathOf(exchange);
  if (isControlPath(path)) return `the mock's control API (${CONTROL_PREFIX}), which every mock serves itself`;
  const served = SERVED_BY_THE_MOCK.get(`${exchange.method} ${path}`);
  if (served !== undefined) return served;
  if (!path.startsWith('/api/')) return 'not under /api/, where every route of a mock config is';
  const method = exchange.method;
  if (!isRouteMethod(method)) return `${method} is not a method of a mock route (${ROUTE_METHODS.join(', ')})`;
  const own = MOCK_OWN_STATUS.get(exchange.status);
  if (own !== undefined) return own;
  if (exchange.status < 200 || exchange.status > 599) return `answered ${exchange.status}, not a status of a mock route (200 to 599)`;
  const body = answeredBody(exchange);
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

/** The answer as the mock gives it back exactly: through its envelope where that adds nothing, else whole. */
function recordedBody(status: number, templated: Record<string, unknown>): RecordedBody {
  if (status === 204 && Object.keys(templated).length === 0) return { response: {} };
  if (status < 400 && templated['success'] === true) return { response: withoutSuccess(templated) };
  if (status >= 400 && typeof templated['error'] === 'string') return { response: templated };
  return { body: templated };
}

/** The ship fields a route's successes wrote from the request body, where every one of them that wrote a field agreed. */
function shipWrites(samples: readonly Sample[], scope: RecordingScope): Record<string, string> | undefined {
  const writes = new Map<string, string | null>();
  for (const sample of samples) {
    const { exchange } = sample;
    for (const [field, source] of fieldsWritten(scope.ships.get(exchange), scope.shipsAfter.get(exchange), requestFields(exchange))) {
      const agreed = writes.get(field);
      writes.set(field, agreed === undefined || agreed === source ? source : null);
    }
  }
  const agreed = [...writes].filter((entry): entry is [string, string] => entry[1] !== null);
  return agreed.length === 0 ? undefined : Object.fromEntries(agreed.map(([field, source]) => [field, `{{body.${source}}}`]));
}

/** The writes with each counter reading the points the call leaves; undefined when there are none. */
function withCounters(writes: Record<string, string> | undefined, counters: readonly string[]): Record<string, string> | undefined {
  if (counters.length === 0) return writes;
  return { ...writes, ...Object.fromEntries(counters.map((field) => [field, POINTS_TEMPLATE])) };
}

interface RouteDraft {
  method: RouteMethod;
  path: string;
  samples: Sample[];
}

/** Ids a replay does not give again: the players' and their ships' (the mock gives its own), and every token. */
function unstableIds(identities: TrafficIdentities, exchanges: readonly Exchange[]): Set<string> {
  const ids = new Set(identities.tokens);
  for (const player of identities.players.values()) if (player.id !== undefined) ids.add(player.id);
  for (const exchange of exchanges) {
    const id = answeredShip(exchange)?.['id'];
    if (typeof id === 'string' || typeof id === 'number') ids.add(String(id));
  }
  return ids;
}

interface RecordingScope {
  identities: TrafficIdentities;
  emails: EmailPlaceholders;
  spent: ReadonlyMap<Exchange, number>;
  ships: ReadonlyMap<Exchange, Ship>;
  shipsAfter: ReadonlyMap<Exchange, Ship>;
  /** Values a replay does not send again, which no condition may name. */
  unstable: ReadonlySet<string>;
  counters: ResourceCounters;
}

function recordRoute(draft: RouteDraft, scope: RecordingScope) {
  const { method, path, samples } = draft;
  const { identities, emails, spent, ships } = scope;
  const id = `${method} ${path}`;
  const category = categoryOf(method, samples);
  const notes: string[] = [];
  if (category === 'public' && samples.some((sample) => sample.token !== undefined)) notes.push('answered without a token: recorded as public');
  const templated = samples.map((sample) => {
    const player = category === 'public' || sample.token === undefined ? undefined : identities.players.get(sample.token);
    const callersShip = category === 'public' ? undefined : (ships.get(sample.exchange) ?? scope.shipsAfter.get(sample.exchange));
    const { response } = answerTemplate(withShipMarked(sample.body, callersShip), { params: sample.params, tokens: identities.tokens, player, emails });
    const request = { params: sample.params, query: queryOf(sample.exchange), body: requestFields(sample.exchange) };
    const answer = withShipTemplates(response);
    return { sample, request, answer, echoes: echoesOf(answer, request) };
  });
  const trusted = trustedEchoes(templated.map(({ echoes }) => echoes));
  const recorded = templated.map(({ sample, request, answer, echoes }) => {
    const { status } = sample.exchange;
    const following = withEchoes(answer, echoes, trusted) as Record<string, unknown>;
    const recordedAnswer: RecordedAnswer = { ...(status === 200 ? {} : { status }), ...recordedBody(status, following) };
    return {
      params: Object.fromEntries(sample.params.map(({ name, value }) => [name, value])),
      query: request.query,
      body: request.body,
      answer: recordedAnswer,
      key: canonicalJson(recordedAnswer),
      echoed: echoedValues(sample.body),
    };
  });
  const replayed = alternativesOf(recorded, scope.unstable);
  if (replayed !== undefined) {
    const selected = new Set(replayed.alternatives.map((each) => JSON.stringify(each.when ?? null))).size;
    notes.push(
      `${samples.length} recordings answered ${new Set(recorded.map((each) => each.key)).size} different ways: replayed as ${replayed.alternatives.length} answers to ${selected === 1 ? 'the same request, in order' : `${selected} requests told apart by their path, query and body`}`,
    );
    if (replayed.cut > 0) notes.push(`${replayed.cut} answers in the middle of long runs left out (${MAX_ANSWERS_IN_ORDER} kept in order for each request)`);
  }
  let cost: number | undefined;
  if (category === 'gameplay') {
    cost = costOf(samples.flatMap((sample) => spent.get(sample.exchange) ?? []));
    if (cost === undefined) notes.push('costs 1 action point: no answer showed the points it spent');
    cost ??= 1;
  }
  const writes = method === 'GET' ? undefined : shipWrites(samples, scope);
  // A ship write answers 404 to a player without a ship: counters are written only where every call had one.
  const withShip = samples.every((sample) => ships.has(sample.exchange));
  const ship = category === 'gameplay' && withShip ? withCounters(writes, scope.counters.ship) : writes;
  const player = category === 'gameplay' ? withCounters(undefined, scope.counters.player) : undefined;
  const answers = replayed?.alternatives.map(({ when, answer }) => ({ ...(when === undefined ? {} : { when }), ...answer }));
  const route: RecordedRoute = {
    method,
    path,
    category,
    ...(cost === undefined ? {} : { cost }),
    ...(ship === undefined ? {} : { ship }),
    ...(player === undefined ? {} : { player }),
    ...(answers === undefined ? recorded[0]!.answer : { answers }),
  };
  return { route, notes: [...new Set(notes)].map((note) => `${id}: ${note}`) };
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
  const counters = {
    ship: counterFields(answered, answeredShip).filter((field) => !MOCK_OWN_SHIP_FIELDS.has(field)),
    player: counterFields(answered, answeredPlayer).filter((field) => !PLAYER_FIELDS_OF_THE_MOCK.has(field)),
  };
  const scope = {
    identities,
    emails,
    spent,
    ships: shipsBefore(answered),
    shipsAfter: shipsAfter(answered),
    unstable: unstableIds(identities, answered),
    counters,
  };
  const recorded = [...drafts.values()].map((draft) => recordRoute(draft, scope));
  const schema = options.schema === undefined ? RECORDED_CONFIG_SCHEMA : options.schema;
  const templates = resourceTemplates(answered, identities, emails, counters);
  const session = recordSession(answered, identities, scope.unstable, emails);
  return {
    config: {
      ...(schema === null ? {} : { $schema: schema }),
      ...templates,
      routes: recorded.map(({ route }) => route),
      ...(session.requests.length === 0 ? {} : { session: session.requests }),
    },
    skipped,
    notes: [...recorded.flatMap(({ notes }) => notes), ...session.leftOut],
  };
}

/** Writes a recording's config as `game-service mock --config` reads it: JSON, two spaces, a final newline. */
export async function writeRecordedRoutes(file: string, config: RecordedConfig): Promise<void> {
  await writeFile(file, `${JSON.stringify(config, null, 2)}\n`);
}
