import { isControlPath } from '../../src/spec/control-routes.js';
import { HEADERS } from '../../src/spec/limits.js';
import { RUN_HEADER } from '../target/run-header.js';
import { PLAYER_EMAIL_PLACEHOLDER, PLAYER_TOKEN_PLACEHOLDER, type RecordedRequest } from '../../src/spec/recorded-session.js';
import { ROUTES } from '../../src/spec/routes.js';
import { mediaTypeOf, pointerSegment, shapeOf } from '../common/answer-shape.js';
import { type Exchange, isObject, parsedJson } from '../common/exchange.js';
import { type EmailPlaceholders, redactedString } from './answer-template.js';
import { echoesOf, echoKey, normalised, trustedEchoes, type Echo } from './request-echoes.js';
import { decoded, type RouteParam, routePattern } from './route-pattern.js';
import { answeredPlayer, bearerToken, pathOf, type TrafficIdentities } from './traffic-identities.js';

/**
 * The session of a recording (the `session` key, src/spec/recorded-session.ts): the client's requests in order,
 * each with its answer's shape, its secrets and the ids a deployment gives each player written as placeholders,
 * so that `check --recording` can send them again as a player of its own.
 */

const SPEC_ROUTES = new Map(ROUTES.map((route) => [`${route.method} ${route.path}`, route]));
/** The run signs its own player in: the recorded sign-in is not sent again. */
const SIGN_IN = new Set(ROUTES.filter((route) => route.category === 'auth').map((route) => `${route.method} ${route.path}`));
const SENT_AGAIN = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
/**
 * The headers of the answer a client's pacing reads: the contract keeps which were there. Not NextRefill, which the
 * spec sends only at 0 points, nor Retry-After, only on a 429.
 */
const CONTRACT_HEADERS = [HEADERS.rateLimitLimit, HEADERS.rateLimitRemaining, HEADERS.rateLimitReset, HEADERS.actionPointsRemaining];
/**
 * Request headers a client does not set itself, or that the run sets its own way: HTTP's, the browser's, CORS's,
 * the token's and a proxy's. Any other the client set (`X-Client-Version`, `Accept`) is sent again.
 */
const NOT_THE_CLIENTS = new Set([
  'authorization',
  'host',
  'content-length',
  'content-type',
  'connection',
  'keep-alive',
  'te',
  'upgrade',
  'origin',
  'referer',
  'user-agent',
  'accept-encoding',
  'accept-language',
  'cookie',
  'cache-control',
  'pragma',
  'priority',
  'dnt',
  'if-none-match',
  'if-modified-since',
  'forwarded',
  'via',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-real-ip',
  'true-client-ip',
  'cf-connecting-ip',
  RUN_HEADER,
]);
/** The objects whose `id` is a player's or a ship's own. */
const OWN_OBJECT = /^(player|ship)$/i;
/** A field holding an id a deployment gives: `id`, `shipId`, `ship_id`, `uuid`. */
const ID_KEY = /^(id|uuid)$|Id$|_id$/i;

/** The one reason to leave a request out that the recording notes: the others are not the client's contract by design. */
const NOT_JSON = 'its body is not JSON, and the session sends JSON bodies';

/** Why an exchange is not in the session, or undefined when it is. */
function leftOut(exchange: Exchange): string | undefined {
  const path = pathOf(exchange);
  if (isControlPath(path)) return "the mock's control API";
  if (!path.startsWith('/api/') && path !== '/health') return 'not under /api/';
  if (!SENT_AGAIN.has(exchange.method)) return `${exchange.method}: not a request the client makes of the API`;
  if (SIGN_IN.has(`${exchange.method} ${path}`)) return 'the sign-in: the run signs its own player in';
  if (exchange.status === 401) return "answered 401: a token's end, not the API's shape";
  if (exchange.status === 429) return 'answered 429: pacing, not the API';
  if (exchange.requestBody !== undefined && exchange.requestBody !== '' && parsedJson(exchange.requestBody) === undefined) return NOT_JSON;
  return undefined;
}

/** An id of an earlier answer: where it was, under which key and parent. */
interface AnsweredId {
  index: number;
  pointer: string;
  key: string;
  parent: string | undefined;
}

/** The ids each answer gave, by their value as text: the latest last. */
class AnsweredIds {
  readonly #byValue = new Map<string, AnsweredId[]>();

  /** `unstable`: the ids a deployment gives each player anew (players', ships'); `created`: the answer of a POST, PUT or PATCH. */
  note(index: number, body: unknown, unstable: ReadonlySet<string>, created: boolean): void {
    const visit = (value: unknown, pointer: string, key: string | undefined, parent: string | undefined) => {
      if (Array.isArray(value)) for (const [at, item] of value.entries()) visit(item, `${pointer}/${at}`, key, parent);
      else if (isObject(value)) for (const [name, item] of Object.entries(value)) visit(item, `${pointer}/${pointerSegment(name)}`, name, key);
      else if (key !== undefined && ID_KEY.test(key) && (typeof value === 'string' ? value !== '' : Number.isInteger(value))) {
        const text = String(value);
        // An id of the world (a galaxy, a sector) is the same for every player, sent as recorded; one of a player
        // (theirs, their ship's), of what they made, or a long one outside any list (a session's) follows the deployment.
        const own = key === 'id' && (parent === undefined || OWN_OBJECT.test(parent)) && unstable.has(text);
        const outsideLists = !/\/\d+(\/|$)/.test(pointer);
        if (!own && !(text.length >= 2 && (created || outsideLists))) return;
        this.#byValue.set(text, [...(this.#byValue.get(text) ?? []), { index, pointer, key, parent }]);
      }
    };
    visit(body, '', undefined, undefined);
  }

  /**
   * The placeholder of an earlier answer's id that `value`, sent under `name`, is: one named like it (`shipId`, or
   * `id` in a `ship`; a bare `id` names nothing), else, for a value no answer holds by coincidence (two characters
   * or more), the latest.
   */
  placeholderFor(value: string | number, name: string | undefined): string | undefined {
    const candidates = this.#byValue.get(String(value)) ?? [];
    const wanted = name === undefined ? undefined : normalised(name).replace(/ies$/, 'y').replace(/s$/, '');
    const named = candidates.filter(
      ({ key, parent }) =>
        wanted !== undefined &&
        wanted !== 'id' &&
        (normalised(key) === wanted ||
          normalised(key) === `${wanted}id` ||
          (normalised(key) === 'id' && normalised(parent ?? '').replace(/s$/, '') === wanted.replace(/id$/, ''))),
    );
    const chosen = named.at(-1) ?? (String(value).length >= 2 ? candidates.at(-1) : undefined);
    return chosen === undefined ? undefined : `{{answer ${chosen.index} ${chosen.pointer}}}`;
  }
}

/** What the run must give in place of a value sent: its player's token or email, or an earlier answer's id. */
function placeholder(value: string | number, name: string | undefined, scope: SessionScope): string | undefined {
  if (typeof value === 'string' && scope.tokens.has(value)) return PLAYER_TOKEN_PLACEHOLDER;
  if (typeof value === 'string' && scope.emails.has(value.toLowerCase())) return PLAYER_EMAIL_PLACEHOLDER;
  return scope.ids.placeholderFor(value, name);
}

/** A string sent, as the session writes it: the run's placeholder, else with its secrets and addresses redacted. */
function sentString(text: string, name: string | undefined, scope: SessionScope): string {
  return placeholder(text, name, scope) ?? redactedString(text, name, scope.tokens, scope.placeholders);
}

interface SessionScope {
  tokens: ReadonlySet<string>;
  /** The recording's players, by the token each sent, numbered in the order they first sent one. */
  players: Map<string, number>;
  /** The ids a deployment gives each player anew: the players' and their ships'. */
  unstable: ReadonlySet<string>;
  emails: ReadonlySet<string>;
  /** The addresses of others, as the routes write them. */
  placeholders: EmailPlaceholders;
  ids: AnsweredIds;
}

/** The path and query sent, placeholders where they carry the run's values. */
function sentPath(exchange: Exchange, scope: SessionScope): string {
  const url = new URL(exchange.url, 'http://path.invalid');
  const segments = url.pathname.split('/');
  const path = segments
    .map((segment, at) => {
      if (segment === '') return segment;
      const sent = sentString(decoded(segment), segments[at - 1] || undefined, scope);
      return sent === decoded(segment) ? segment : sent.startsWith('{{') ? sent : encodeURIComponent(sent);
    })
    .join('/');
  const query = [...url.searchParams].map(([name, value]) => {
    const sent = sentString(value, name, scope);
    return `${encodeURIComponent(name)}=${sent.startsWith('{{') ? sent : encodeURIComponent(sent)}`;
  });
  return query.length === 0 ? path : `${path}?${query.join('&')}`;
}

/** The body sent, placeholders where it carries the run's values (a whole value each). */
function sentBody(value: unknown, name: string | undefined, scope: SessionScope): unknown {
  if (Array.isArray(value)) return value.map((item) => sentBody(item, name, scope));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, sentBody(item, key, scope)]));
  if (typeof value === 'string') return sentString(value, name, scope);
  if (typeof value === 'number' && Number.isInteger(value)) return placeholder(value, name, scope) ?? value;
  return value;
}

function routeOf(exchange: Exchange, tokens: ReadonlySet<string>): { route: string; params: readonly RouteParam[] } {
  const path = pathOf(exchange);
  if (SPEC_ROUTES.has(`${exchange.method} ${path}`)) return { route: `${exchange.method} ${path}`, params: [] };
  const pattern = routePattern(path, tokens);
  return typeof pattern === 'string'
    ? { route: `${exchange.method} ${path}`, params: [] }
    : { route: `${exchange.method} ${pattern.path}`, params: pattern.params };
}

/** What one exchange gives the session, before the values that follow the request are chosen across its route. */
interface Drafted {
  request: RecordedRequest;
  echoes: Echo[];
}

/** The headers the client set itself, as the session writes them. */
function clientHeaders(exchange: Exchange, scope: SessionScope): Record<string, string> | undefined {
  const kept = Object.entries(exchange.requestHeaders)
    .map(([name, value]) => [name.toLowerCase(), value] as const)
    .filter(([name]) => !NOT_THE_CLIENTS.has(name) && !name.startsWith('sec-'))
    .map(([name, value]) => [name, sentString(value, name, scope)]);
  return kept.length === 0 ? undefined : Object.fromEntries(kept);
}

/** Which of the recording's players sent the request (its token's number), or undefined without a token. */
function playerOf(token: string | undefined, scope: SessionScope): number | undefined {
  if (token === undefined) return undefined;
  if (!scope.players.has(token)) scope.players.set(token, scope.players.size);
  return scope.players.get(token);
}

function draft(exchange: Exchange, index: number, scope: SessionScope): Drafted {
  const { route, params } = routeOf(exchange, scope.tokens);
  const token = bearerToken(exchange);
  const player = playerOf(token, scope);
  const requestHeaders = clientHeaders(exchange, scope);
  const sent = parsedJson(exchange.requestBody);
  const contentType = mediaTypeOf(exchange);
  const headers = CONTRACT_HEADERS.filter((name) => exchange.headers[name] !== undefined);
  const answered = exchange.body;
  const request: RecordedRequest = {
    method: exchange.method,
    path: sentPath(exchange, scope),
    route,
    ...(token === undefined ? {} : { auth: true }),
    ...(player === undefined || player === 0 ? {} : { player }),
    ...(requestHeaders === undefined ? {} : { requestHeaders }),
    ...(sent === undefined ? {} : { body: sentBody(sent, undefined, scope) }),
    status: exchange.status,
    ...(contentType === undefined ? {} : { contentType }),
    ...(headers.length === 0 ? {} : { headers }),
    ...(answered === undefined ? {} : { fields: shapeOf(answered, (key) => scope.tokens.has(key)) }),
  };
  const query = Object.fromEntries(new URL(exchange.url, 'http://path.invalid').searchParams);
  const echoes = answered === undefined ? [] : echoesOf(answered, { params, query, body: isObject(sent) ? sent : undefined });
  // Noted after the request is written: an id is the placeholder of a later request, not of its own.
  if (answered !== undefined) scope.ids.note(index, answered, scope.unstable, exchange.method !== 'GET' && exchange.method !== 'DELETE');
  return { request, echoes };
}

/** The session's requests, and the requests of the client it could not keep (one line per route). */
export interface RecordedSession {
  requests: RecordedRequest[];
  leftOut: string[];
}

/** The traffic's requests as the session of a recording, in the order they were sent. */
export function recordSession(
  answered: readonly Exchange[],
  identities: TrafficIdentities,
  unstable: ReadonlySet<string>,
  placeholders: EmailPlaceholders,
): RecordedSession {
  const emails = new Set([...identities.players.values()].flatMap((player) => (player.email === undefined ? [] : [player.email.toLowerCase()])));
  // The players' ids as GET /api/player answered them, numbers too: each player gets its own.
  const playerIds = answered.flatMap((exchange) => {
    const id = answeredPlayer(exchange)?.['id'];
    return typeof id === 'string' || typeof id === 'number' ? [String(id)] : [];
  });
  const scope: SessionScope = {
    tokens: identities.tokens,
    players: new Map(),
    unstable: new Set([...unstable, ...playerIds]),
    emails,
    placeholders,
    ids: new AnsweredIds(),
  };
  const drafts: Drafted[] = [];
  const notJson = new Map<string, number>();
  for (const exchange of answered) {
    const reason = leftOut(exchange);
    if (reason === undefined) drafts.push(draft(exchange, drafts.length, scope));
    else if (reason === NOT_JSON) {
      const { route } = routeOf(exchange, scope.tokens);
      notJson.set(route, (notJson.get(route) ?? 0) + 1);
    }
  }
  const trusted = new Map(
    [...Map.groupBy(drafts, ({ request }) => request.route)].map(([route, each]) => [route, trustedEchoes(each.map(({ echoes }) => echoes))]),
  );
  const requests = drafts.map(({ request, echoes }) => {
    const kept = echoes.filter((echo) => trusted.get(request.route)!.has(echoKey(echo)));
    return kept.length === 0 ? request : { ...request, follows: Object.fromEntries(kept.map((echo) => [echo.at, echo.expression])) };
  });
  return { requests, leftOut: [...notJson].map(([route, count]) => `${route}: ${count} left out of the session: ${NOT_JSON}`) };
}
