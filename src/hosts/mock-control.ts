import type { FaultRuleJson } from '../core/fault-rules.js';
import type { StoredFaultRule } from '../core/faults.js';
import type { ServiceResponse } from '../core/http.js';
import { MAX_PAGE_SIZE } from '../core/control/listing.js';
import type { Service } from '../core/service.js';
import type { World, WorldPlayer } from '../core/world.js';

export interface ClockState {
  now: string;
  nowMs: number;
  frozen: boolean;
}

export interface OutboxMessage {
  email: string;
  code: string;
  issuedAt: string;
  expiresAt: string;
  state: 'pending' | 'used' | 'voided' | 'replaced' | 'expired';
}

export interface ControlPlayer {
  id: string;
  email: string;
  emailVerified: boolean;
  createdAt: string;
  actionPoints: number;
  maxActionPoints: number;
  ship: { id: string; name: string; createdAt: string } | null;
  inEncounter: boolean;
}

export interface SeededPlayer {
  id: string;
  email: string;
  authToken: string;
  expiresAt: string;
}

export interface RateLimitBucket {
  category: string;
  /** The client IP, or the player id for the per-player categories. */
  key: string;
  count: number;
  limit: number;
  remaining: number;
  resetAt: string;
}

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
  /** true: requests that met a fault; false: those that met none; or a kind of fault ('status', 'reset', …). */
  fault?: boolean | 'status' | 'latency' | 'reset' | 'truncate' | 'rate-limit';
}

export interface JournalEntryView {
  at: string;
  method: string;
  path: string;
  status: number;
  category: string | null;
  ip: string;
  origin: string | null;
  playerId: string | null;
  fault: string[] | null;
}

export type ResetPart = 'buckets' | 'players' | 'outbox' | 'journal' | 'clock';

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

export interface VariantsState {
  variants: string[];
  seed?: number;
  choices: { choice: string; sentence: string; default: string; variants: { name: string; does: string }[] }[];
}

const json = new TextEncoder();

/**
 * Typed calls of the control API, made in-process through `service.handle` (no peer, so always allowed):
 * the same routes, checks and answers as `curl .../__mock/...` against the standalone mock.
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
  const player = (idOrEmail: string) => `/__mock/players/${encodeURIComponent(idOrEmail)}`;
  const query = (values: Record<string, string | number | undefined>) => {
    const defined = Object.entries(values).filter((entry): entry is [string, string | number] => entry[1] !== undefined);
    return defined.length === 0 ? '' : `?${new URLSearchParams(defined.map(([key, value]) => [key, String(value)]))}`;
  };
  /** Every entry of a listing, page after page. */
  async function listAll<T>(path: string, name: string, filter: Record<string, string | undefined> = {}): Promise<T[]> {
    const entries: T[] = [];
    let cursor: string | undefined;
    do {
      const page = await call<{ nextCursor: string | null }>('GET', `${path}${query({ ...filter, limit: MAX_PAGE_SIZE, cursor })}`);
      entries.push(...((page as unknown as Record<string, T[]>)[name] ?? []));
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    return entries;
  }
  const journalQuery = ({ from, to, status, fault, ...rest }: JournalFilter) => ({
    ...rest,
    status: status === undefined ? undefined : String(status),
    fault: fault === undefined ? undefined : String(fault),
    from: from instanceof Date ? from.toISOString() : from === undefined ? undefined : String(from),
    to: to instanceof Date ? to.toISOString() : to === undefined ? undefined : String(to),
  });
  const clock = () => call<ClockState>('GET', '/__mock/clock');
  /** Delivered codes, newest first, with the fate of each. */
  const outbox = (email?: string) => listAll<OutboxMessage>('/__mock/outbox', 'messages', { email });

  return {
    /** Any control route, for those without a typed call below; throws MockControlError unless 200. */
    call,
    clock,
    now: async () => (await clock()).nowMs,
    advanceClock: (ms: number) => call<ClockState>('POST', '/__mock/clock', { advanceMs: ms }),
    /** Moves the clock to `at`; `frozen` then freezes or releases it. */
    setClock: (at: Date | number | string, options: { frozen?: boolean } = {}) =>
      call<ClockState>('POST', '/__mock/clock', { set: new Date(at).toISOString(), ...options }),
    freezeClock: () => call<ClockState>('POST', '/__mock/clock', { frozen: true }),
    unfreezeClock: () => call<ClockState>('POST', '/__mock/clock', { frozen: false }),
    outbox,
    /** The code most recently delivered to `email`, whatever became of it since. */
    latestOtp: async (email: string) => {
      const [latest] = await outbox(email);
      // No code is the mock's answer, not a bug of the caller's: the same error as a refused control call.
      if (latest === undefined) throw new MockControlError(404, `The mock delivered no code to ${email}`, `GET /__mock/outbox?email=${email}`);
      return latest.code;
    },
    players: () => listAll<ControlPlayer>('/__mock/players', 'players'),
    /** Creates or updates a player and issues a token for it. */
    createPlayer: (seed: WorldPlayer) => call<{ player: ControlPlayer; authToken: string; expiresAt: string }>('POST', '/__mock/players', seed),
    setActionPoints: (idOrEmail: string, points: number) => call<{ player: ControlPlayer }>('PUT', `${player(idOrEmail)}/action-points`, { points }),
    buckets: (filter: { category?: string; key?: string } = {}) => listAll<RateLimitBucket>('/__mock/buckets', 'buckets', filter),
    clearBuckets: async (filter: { category?: string; key?: string } = {}) =>
      (await call<{ removed: number }>('DELETE', `/__mock/buckets${query(filter)}`)).removed,
    /** The requests the journal holds that match the filter (all by default), newest first. */
    journal: (filter: JournalFilter = {}) => listAll<JournalEntryView>('/__mock/journal', 'entries', journalQuery(filter)),
    /** How many requests of the journal match the filter, for assertions such as "the client retried twice". */
    count: async (filter: JournalFilter = {}) => (await call<{ count: number }>('GET', `/__mock/journal/count${query(journalQuery(filter))}`)).count,
    /** Adds a fault rule, as JSON or as --fault text (`GET /api/player 503@0.2`); answers it with its id. */
    addFault: async (rule: FaultRuleJson | string) =>
      (await call<{ fault: StoredFaultRule }>('POST', '/__mock/faults', typeof rule === 'string' ? { text: rule } : rule)).fault,
    /** The fault rules in force and the seed of their draws. */
    faults: () => call<{ seed: number; faults: StoredFaultRule[] }>('GET', '/__mock/faults'),
    removeFault: (id: string) => call<{ removed: number }>('DELETE', `/__mock/faults/${encodeURIComponent(id)}`),
    /** Removes every fault rule; answers how many there were. */
    clearFaults: async () => (await call<{ removed: number }>('DELETE', '/__mock/faults')).removed,
    /** Starts the fault draws again from `seed` (or the current seed), to replay a run. */
    reseedFaults: async (seed?: number) => (await call<{ seed: number }>('POST', '/__mock/faults/seed', seed === undefined ? undefined : { seed })).seed,
    /** Forgets everything, or the parts named; players go back to the start world. */
    reset: (parts?: readonly ResetPart[]) => call<{ reset: ResetPart[] }>('POST', '/__mock/reset', parts === undefined ? undefined : { parts }),
    /** Replaces every player and token with the world's. */
    loadWorld: async (world: World) => (await call<{ players: SeededPlayer[] }>('POST', '/__mock/world', world)).players,
    /** Applies a named scenario (GET /__mock/scenarios lists them) with its parameters. */
    applyScenario: (name: string, params: Readonly<Record<string, string>> = {}) => call<Body>('POST', `/__mock/scenarios/${encodeURIComponent(name)}`, params),
    /** The legal variations played where the spec is silent, and the seed that drew them (random). */
    variants: () => call<VariantsState>('GET', '/__mock/variants'),
    /** Plays these from now on: names, all, random[:SEED], public-deployment; [] for the defaults. */
    setVariants: (variants: readonly string[]) => call<VariantsState>('PUT', '/__mock/variants', { variants }),
  };
}

export type MockControl = ReturnType<typeof createMockControl>;
