/** Where a mock serves its control API; the real service has none. */
export const CONTROL_PREFIX = '/__mock';

/** What POST /reset may forget, in the order a body names them. */
export const RESET_PARTS = ['buckets', 'players', 'outbox', 'journal', 'clock'] as const;
export type ResetPart = (typeof RESET_PARTS)[number];

/** The query parameters that select journal entries; every one given must hold. */
export const JOURNAL_FILTERS = ['method', 'path', 'status', 'ip', 'player', 'origin', 'from', 'to', 'fault', 'bodyMatches', 'header'] as const;
const FILTER_QUERY = JOURNAL_FILTERS.map((name) => `${name}=`).join('&');

export interface ControlRouteSpec {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Under CONTROL_PREFIX; `:name` segments are parameters. */
  readonly pattern: string;
  readonly summary: string;
  /** The media type of an answer that is not JSON (the dashboard's files, an event stream). */
  readonly contentType?: string;
  /** The body is a document of another format, sent as it is: no `success: true` beside it. */
  readonly bare?: true;
  /** Reads or writes nothing a store keeps but the clock: a shared store loads no records for it. */
  readonly clockOnly?: true;
  /** Leaves buckets, their windows and the variants played as they were: a proxy keeps what it learned across it. */
  readonly keepsLimits?: true;
}

/** Every control route by key; the server, the typed control, the dashboard and the OpenAPI document read them here. */
export const CONTROL_ROUTES = {
  capabilities: {
    method: 'GET',
    pattern: `${CONTROL_PREFIX}/capabilities`,
    summary: 'what this target offers; the conformance suite probes it',
    clockOnly: true,
  },
  outbox: {
    method: 'GET',
    pattern: `${CONTROL_PREFIX}/outbox`,
    summary: '?email=&limit=&cursor=: delivered codes, newest first, with issue and expiry times and state; nextCursor goes on',
  },
  reset: {
    method: 'POST',
    pattern: `${CONTROL_PREFIX}/reset`,
    summary: `{parts?: [${RESET_PARTS.join(', ')}]}: forget everything, or those parts; players go back to the start world`,
  },
  loadWorld: { method: 'POST', pattern: `${CONTROL_PREFIX}/world`, summary: 'a world ({players: [...]}): replace every player and token with its own' },
  buckets: {
    method: 'GET',
    pattern: `${CONTROL_PREFIX}/buckets`,
    summary: '?category=&key=&limit=&cursor=: live rate-limit buckets (category, key, count, limit, remaining, resetAt); nextCursor goes on',
  },
  clearBuckets: { method: 'DELETE', pattern: `${CONTROL_PREFIX}/buckets`, summary: '?category=&key=: empty the matching buckets (all without a filter)' },
  setBucket: {
    method: 'PUT',
    pattern: `${CONTROL_PREFIX}/buckets`,
    summary: '{category, key, count, resetAt}: set one bucket, its window ending at resetAt (how a run puts back the buckets it found)',
  },
  clock: { method: 'GET', pattern: `${CONTROL_PREFIX}/clock`, summary: 'the virtual time and whether it is frozen', clockOnly: true },
  setClock: {
    method: 'POST',
    pattern: `${CONTROL_PREFIX}/clock`,
    summary: '{set: ISO} and/or {advanceMs}, then {frozen}: move or freeze the clock',
    clockOnly: true,
  },
  players: {
    method: 'GET',
    pattern: `${CONTROL_PREFIX}/players`,
    summary: '?email=&limit=&cursor=: players in the order they were added, with action points and encounter state; nextCursor goes on',
  },
  createPlayer: {
    method: 'POST',
    pattern: `${CONTROL_PREFIX}/players`,
    summary: '{email, emailVerified?, token?, actionPoints?, ship?, inEncounter?, …your fields}: create or update a player and issue a token',
    keepsLimits: true,
  },
  removePlayers: {
    method: 'DELETE',
    pattern: `${CONTROL_PREFIX}/players`,
    summary:
      '?email=&email=…: remove the players of these addresses with their tokens and buckets, and the codes sent to the addresses (pending and in the outbox); other players stay',
  },
  setActionPoints: {
    method: 'PUT',
    pattern: `${CONTROL_PREFIX}/players/:id/action-points`,
    summary: "{points}: set a player's action points (the refill interval restarts)",
    keepsLimits: true,
  },
  startEncounter: {
    method: 'POST',
    pattern: `${CONTROL_PREFIX}/players/:id/encounter`,
    summary: 'start a fighter encounter: gameplay actions answer 409 until it is resolved',
    keepsLimits: true,
  },
  endEncounter: {
    method: 'DELETE',
    pattern: `${CONTROL_PREFIX}/players/:id/encounter`,
    summary: "resolve the player's fighter encounter",
    keepsLimits: true,
  },
  scenarios: { method: 'GET', pattern: `${CONTROL_PREFIX}/scenarios`, summary: 'the named scenarios and their parameters' },
  applyScenario: { method: 'POST', pattern: `${CONTROL_PREFIX}/scenarios/:name`, summary: 'apply one scenario; the body holds its parameters' },
  variants: {
    method: 'GET',
    pattern: `${CONTROL_PREFIX}/variants`,
    summary: 'the legal variations played where the spec is silent, and every choice with its sentence',
    clockOnly: true,
  },
  setVariants: {
    method: 'PUT',
    pattern: `${CONTROL_PREFIX}/variants`,
    summary: '{variants: [NAME | all | random[:SEED] | public-deployment, …]}: play those from now on ([] for the defaults)',
    clockOnly: true,
  },
  journal: {
    method: 'GET',
    pattern: `${CONTROL_PREFIX}/journal`,
    summary: `?${FILTER_QUERY}&limit=&cursor=: the last requests (method, path, status, category, faults met, headers and body as sent, secrets masked), newest first; nextCursor goes on`,
  },
  removeJournal: {
    method: 'DELETE',
    pattern: `${CONTROL_PREFIX}/journal`,
    summary: `?${FILTER_QUERY}: take the matching requests out of the journal (every one without a filter); answers how many went`,
  },
  journalStream: {
    method: 'GET',
    pattern: `${CONTROL_PREFIX}/journal/stream`,
    summary: `?${FILTER_QUERY}&limit=: server-sent events, one per request as it is answered; limit (default 0) held entries first`,
    contentType: 'text/event-stream',
  },
  journalCount: {
    method: 'GET',
    pattern: `${CONTROL_PREFIX}/journal/count`,
    summary: `?${FILTER_QUERY}: how many requests of the whole journal match the filters`,
  },
  journalHar: {
    method: 'GET',
    pattern: `${CONTROL_PREFIX}/journal.har`,
    summary: `?${FILTER_QUERY}: the journal's requests, oldest first, as a HAR 1.2 document for devtools (method, URL, status, time, the request's headers and body; no response bodies)`,
    bare: true,
  },
  faults: {
    method: 'GET',
    pattern: `${CONTROL_PREFIX}/faults`,
    summary: 'the fault rules in force, in the order they draw, and the seed of their draws',
  },
  addFault: {
    method: 'POST',
    pattern: `${CONTROL_PREFIX}/faults`,
    summary:
      '{kind, method?, path?, probability?, status?, ms?, minMs?, maxMs?} or {text: "GET /api/player 503@0.2"}: add a fault rule; answers it with its id',
  },
  clearFaults: { method: 'DELETE', pattern: `${CONTROL_PREFIX}/faults`, summary: 'remove every fault rule (those of the configuration and of scenarios too)' },
  removeFault: { method: 'DELETE', pattern: `${CONTROL_PREFIX}/faults/:id`, summary: 'remove one fault rule by its id' },
  reseedFaults: {
    method: 'POST',
    pattern: `${CONTROL_PREFIX}/faults/seed`,
    summary: '{seed?}: start the draws again from this seed (or the current one), to replay a run of faults',
  },
  routes: {
    method: 'GET',
    pattern: `${CONTROL_PREFIX}/routes`,
    summary: "every API route: the spec's, the mock's and your own, with method, path, category, cost and source",
  },
  putRoute: {
    method: 'POST',
    pattern: `${CONTROL_PREFIX}/routes`,
    summary: "a route of your own, in the config file's format: add it, or replace the route of its method and path; answers its listing",
    clockOnly: true,
    keepsLimits: true,
  },
  removeRoute: {
    method: 'DELETE',
    pattern: `${CONTROL_PREFIX}/routes/:id`,
    summary: 'remove a route of your own by its id ("GET /api/news", encoded); a route of the mock it replaced answers again',
    clockOnly: true,
    keepsLimits: true,
  },
  dashboard: {
    method: 'GET',
    pattern: `${CONTROL_PREFIX}/ui`,
    summary: 'the dashboard: outbox, players, buckets with countdowns, the live journal, clock, scenarios and faults in a browser',
    contentType: 'text/html',
  },
  dashboardFile: { method: 'GET', pattern: `${CONTROL_PREFIX}/ui/:file`, summary: "the dashboard's script and style", contentType: 'text/*' },
  openApi: {
    method: 'GET',
    pattern: `${CONTROL_PREFIX}/openapi.json`,
    summary: 'this API as an OpenAPI 3.1 document, served as it is (no success envelope)',
    bare: true,
    clockOnly: true,
  },
} as const satisfies Readonly<Record<string, ControlRouteSpec>>;

export type ControlRouteKey = keyof typeof CONTROL_ROUTES;

/** Whether a request is addressed to the control API. */
export function isControlPath(path: string): boolean {
  return path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`);
}

let matchers: { route: ControlRouteSpec; path: RegExp }[] | undefined;

/** The control route a request names, if any. Its patterns are compiled on first use: most importers never ask. */
export function controlRouteOf(method: string, path: string): ControlRouteSpec | undefined {
  matchers ??= Object.values(CONTROL_ROUTES).map((route: ControlRouteSpec) => ({
    route,
    path: new RegExp(`^${route.pattern.replaceAll('.', '\\.').replace(/:[A-Za-z]+/g, '[^/]+')}$`),
  }));
  const upper = method.toUpperCase();
  return matchers.find((matcher) => matcher.route.method === upper && matcher.path.test(path))?.route;
}

/** The names of a pattern's `:name` segments. */
export type PathParameters<P extends string> = P extends `${string}/:${infer Name}/${infer Rest}`
  ? Name | PathParameters<`/${Rest}`>
  : P extends `${string}/:${infer Name}`
    ? Name
    : never;

type PatternOf<K extends ControlRouteKey> = (typeof CONTROL_ROUTES)[K]['pattern'];

/** The path parameters a route takes, as the rest of controlPath's arguments: none for most routes. */
export type ControlPathArguments<K extends ControlRouteKey> = [PathParameters<PatternOf<K>>] extends [never]
  ? []
  : [parameters: Readonly<Record<PathParameters<PatternOf<K>>, string>>];

/** A route's path with its parameters filled in and encoded: controlPath('removeFault', {id: 'f1'}). */
export function controlPath<K extends ControlRouteKey>(key: K, ...[parameters]: ControlPathArguments<K>): string {
  const values: Readonly<Record<string, string>> = parameters ?? {};
  return CONTROL_ROUTES[key].pattern.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(values[name] ?? ''));
}
