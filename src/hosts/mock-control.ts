import type { FaultRuleJson } from '../core/fault-rules.js';
import type { ServiceResponse } from '../core/http.js';
import { MAX_PAGE_SIZE } from '../core/control/listing.js';
import type { Service } from '../core/service.js';
import type { World, WorldPlayer } from '../core/world.js';
import type { TemplateRouteConfig } from '../core/user-routes/route-schema.js';
import type { ControlAnswer, JsonControlRouteKey } from '../spec/control-responses.js';
import { CONTROL_ROUTES, controlPath, type ResetPart } from '../spec/control-routes.js';
import type { ControlPlayer, FaultKind, JournalEntryView, OutboxMessage, RateLimitBucket } from '../spec/control-schemas.js';

export type { ResetPart } from '../spec/control-routes.js';
export type { ClockState, ControlPlayer, OutboxMessage, RateLimitBucket, RouteListing, SeededPlayer, VariantsState } from '../spec/control-schemas.js';
export type { TemplateRouteConfig } from '../core/user-routes/route-schema.js';

/** Which journal entries to read or count; every filter given must hold (docs/journal.md). */
export interface JournalFilter {
  method?: string;
  /** A pattern: `*` any run of characters, `:name` one segment. */
  path?: string;
  /** A status (503) or a class ('5xx'). */
  status?: number | string;
  ip?: string;
  /** A player's id or email. */
  player?: string;
  origin?: string;
  /** Inclusive bounds on the mock's clock. */
  from?: Date | number | string;
  to?: Date | number | string;
  /** What the request's body holds: an object or array as a JSON subset (`{ship: {name: 'Nomad'}}`), a string as text in it. */
  bodyMatches?: string | Readonly<Record<string, unknown>> | readonly unknown[];
  /** true: requests that met a fault; false: those that met none; or a kind of fault ('status', 'reset', …). */
  fault?: boolean | FaultKind;
  /** `NAME:VALUE`: a request header (any case) with exactly that value. */
  header?: string;
}

/** A control call the mock refused: the HTTP status and the message of its `{error}` envelope. */
export class MockControlError extends Error {
  constructor(
    readonly status: number,
    readonly envelopeMessage: string,
    readonly route: string,
  ) {
    super(`${route} answered ${status}: ${envelopeMessage}`);
    this.name = 'MockControlError';
  }
}

type Body = Record<string, unknown>;
type Query = Record<string, string | number | undefined>;

const json = new TextEncoder();

/**
 * Typed calls of the control API, made in-process through `service.handle` (no peer, so always allowed):
 * the same routes, checks and answers as `curl` against the standalone mock's control API.
 */
export function createMockControl(service: Service, ip: string) {
  async function call<T = Body>(method: string, pathAndQuery: string, payload?: unknown): Promise<T & { success: true }> {
    const [path = pathAndQuery, query] = pathAndQuery.split('?', 2);
    const answer: ServiceResponse = await service.handle({
      method,
      path,
      query,
      headers: payload === undefined ? {} : { 'content-type': 'application/json' },
      body: payload === undefined ? undefined : json.encode(JSON.stringify(payload)),
      ip,
    });
    const body = answer.body as Body | undefined;
    if (answer.status !== 200) {
      const message = typeof body?.['error'] === 'string' ? body['error'] : `unexpected answer ${JSON.stringify(body)}`;
      throw new MockControlError(answer.status, message, `${method} ${path}`);
    }
    return body as T & { success: true };
  }
  const query = (values: Query) => {
    const defined = Object.entries(values).filter((entry): entry is [string, string | number] => entry[1] !== undefined);
    return defined.length === 0 ? '' : `?${new URLSearchParams(defined.map(([key, value]) => [key, String(value)]))}`;
  };
  /** A declared route's answer; `path` fills in its parameters, for the routes that have some. */
  function declared<K extends JsonControlRouteKey>(key: K, options: { path?: string; query?: Query; body?: unknown } = {}): Promise<ControlAnswer<K>> {
    const { method, pattern } = CONTROL_ROUTES[key];
    return call<ControlAnswer<K>>(method, `${options.path ?? pattern}${query(options.query ?? {})}`, options.body);
  }
  /** Every entry of a listing, page after page. */
  async function listAll<T>(key: 'outbox' | 'players' | 'buckets' | 'journal', name: string, filter: Query = {}): Promise<T[]> {
    const entries: T[] = [];
    let cursor: string | undefined;
    do {
      const page = await declared(key, { query: { ...filter, limit: MAX_PAGE_SIZE, cursor } });
      entries.push(...((page as unknown as Record<string, T[]>)[name] ?? []));
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    return entries;
  }
  const journalQuery = ({ from, to, status, fault, bodyMatches, ...rest }: JournalFilter) => ({
    ...rest,
    bodyMatches: bodyMatches === undefined || typeof bodyMatches === 'string' ? bodyMatches : JSON.stringify(bodyMatches),
    status: status === undefined ? undefined : String(status),
    fault: fault === undefined ? undefined : String(fault),
    from: from instanceof Date ? from.toISOString() : from === undefined ? undefined : String(from),
    to: to instanceof Date ? to.toISOString() : to === undefined ? undefined : String(to),
  });
  /**
   * The requests a client sent that match the filter, newest first, each with its headers and body as sent (codes
   * and tokens masked): `requests({ path: '/api/player/ship', bodyMatches: { name: 'Nomad' } })`.
   */
  const requests = (filter: JournalFilter = {}) => listAll<JournalEntryView>('journal', 'entries', journalQuery(filter));
  const clock = () => declared('clock');
  /** Delivered codes, newest first, with the fate of each. */
  const outbox = (email?: string) => listAll<OutboxMessage>('outbox', 'messages', { email });

  return {
    /** Any control route, for those without a typed call below; throws MockControlError unless 200. */
    call,
    clock,
    now: async () => (await clock()).nowMs,
    advanceClock: (ms: number) => declared('setClock', { body: { advanceMs: ms } }),
    /** Moves the clock to `at`; `frozen` then freezes or releases it. */
    setClock: (at: Date | number | string, options: { frozen?: boolean } = {}) =>
      declared('setClock', { body: { set: new Date(at).toISOString(), ...options } }),
    freezeClock: () => declared('setClock', { body: { frozen: true } }),
    unfreezeClock: () => declared('setClock', { body: { frozen: false } }),
    outbox,
    /** The code most recently delivered to `email`, whatever became of it since. */
    latestOtp: async (email: string) => {
      const [latest] = await outbox(email);
      // No code is the mock's answer, not a bug of the caller's: the same error as a refused control call.
      if (latest === undefined)
        throw new MockControlError(404, `The mock delivered no code to ${email}`, `GET ${CONTROL_ROUTES.outbox.pattern}?email=${email}`);
      return latest.code;
    },
    players: () => listAll<ControlPlayer>('players', 'players'),
    /** Creates or updates a player and issues a token for it. */
    createPlayer: (seed: WorldPlayer) => declared('createPlayer', { body: seed }),
    /** Removes the players of these addresses with their tokens and buckets, and every code sent to the addresses; answers what went. */
    removePlayers: async (emails: readonly string[]) => {
      const { method, pattern } = CONTROL_ROUTES.removePlayers;
      const query = new URLSearchParams(emails.map((email) => ['email', email]));
      return (await call<ControlAnswer<'removePlayers'>>(method, `${pattern}?${query}`)).removed;
    },
    setActionPoints: (idOrEmail: string, points: number) =>
      declared('setActionPoints', { path: controlPath('setActionPoints', { id: idOrEmail }), body: { points } }),
    buckets: (filter: { category?: string; key?: string } = {}) => listAll<RateLimitBucket>('buckets', 'buckets', filter),
    clearBuckets: async (filter: { category?: string; key?: string } = {}) => (await declared('clearBuckets', { query: filter })).removed,
    /** The requests the journal holds that match the filter (all by default), newest first. */
    journal: requests,
    requests,
    /** How many requests of the journal match the filter, for assertions such as "the client retried twice". */
    count: async (filter: JournalFilter = {}) => (await declared('journalCount', { query: journalQuery(filter) })).count,
    /** Takes the requests that match the filter (all by default) out of the journal; answers how many went. */
    removeRequests: async (filter: JournalFilter = {}) => (await declared('removeJournal', { query: journalQuery(filter) })).removed,
    /** Adds a fault rule, as JSON or as --fault text (`GET /api/player 503@0.2`); answers it with its id. */
    addFault: async (rule: FaultRuleJson | string) => (await declared('addFault', { body: typeof rule === 'string' ? { text: rule } : rule })).fault,
    /** The fault rules in force and the seed of their draws. */
    faults: () => declared('faults'),
    removeFault: (id: string) => declared('removeFault', { path: controlPath('removeFault', { id }) }),
    /** Removes every fault rule; answers how many there were. */
    clearFaults: async () => (await declared('clearFaults')).removed,
    /** Starts the fault draws again from `seed` (or the current seed), to replay a run. */
    reseedFaults: async (seed?: number) => (await declared('reseedFaults', seed === undefined ? {} : { body: { seed } })).seed,
    /** Forgets everything, or the parts named; players go back to the start world. */
    reset: (parts?: readonly ResetPart[]) => declared('reset', parts === undefined ? {} : { body: { parts } }),
    /** Replaces every player and token with the world's. */
    loadWorld: async (world: World) => (await declared('loadWorld', { body: world })).players,
    /** Applies a named scenario (the scenarios route lists them) with its parameters. */
    applyScenario: (name: string, params: Readonly<Record<string, string>> = {}) =>
      declared('applyScenario', { path: controlPath('applyScenario', { name }), body: params }),
    /** Every API route: the spec's, the mock's and your own, with category, cost and source. */
    routes: async () => (await declared('routes')).routes,
    /** Adds a route of your own, in the config file's format, or replaces the one of its method and path; answers its listing. */
    putRoute: (route: TemplateRouteConfig) => declared('putRoute', { body: route }),
    /** Removes a route of your own by its id (`GET /api/news/:id`); a route of the mock it replaced answers again. */
    removeRoute: async (id: string) => (await declared('removeRoute', { path: controlPath('removeRoute', { id }) })).removed,
    /** The legal variations played where the spec is silent, and the seed that drew them (random). */
    variants: () => declared('variants'),
    /** Plays these from now on: names, all, random[:SEED], public-deployment; [] for the defaults. */
    setVariants: (variants: readonly string[]) => declared('setVariants', { body: { variants } }),
  };
}

export type MockControl = ReturnType<typeof createMockControl>;
