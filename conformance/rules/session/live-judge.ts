import { CONTROL_ROUTES, controlRouteOf, isControlPath } from '../../../src/spec/control-routes.js';
import { HEADERS } from '../../../src/spec/limits.js';
import { type Exchange, integerHeader, isObject, issuedToken, parsedJson } from '../../common/exchange.js';
import type { Caller } from '../model/rate-limit-model.js';
import { answeredAt, fromDateHeader, type TimeInterval } from '../model/server-time.js';
import { bearerToken } from '../bearer.js';
import { isSuccess } from '../envelope.js';
import { sentAddress } from '../parameters.js';
import { type AnyRuleId, departureMessage, departures, judgeExchange, type Knowledge, onePerRule, type Side, type Verdict } from '../index.js';
import { finding, type LiveFinding } from './live-finding.js';
import { LiveRateLimits } from './live-rate-limits.js';
import { AuthMemory } from './auth-memory.js';
import { BoundedMap } from './bounded-map.js';
import { RuleSessions } from './rule-sessions.js';

/** A request as the proxy received it, before it is forwarded. */
export interface LiveRequest {
  method: string;
  /** The path without its query. */
  path: string;
  /** Lower-case names. */
  headers: Readonly<Record<string, string>>;
  /** The client's address, as the proxy sees it (the socket, or the header it was told to read). */
  clientIp: string;
  /** This machine's time when the request arrived (ms). */
  receivedAt: number;
}

/** A request on its way: who sent it, the bucket it draws from, and what is known of it before the answer. */
export interface PendingRequest {
  readonly request: LiveRequest;
  readonly caller: Caller;
  /** The bearer token it sends, if any. */
  readonly token: string | undefined;
  readonly bucket: string | undefined;
  /** The buckets it may draw from: its own, and its address's public one where which bucket counts it is not shown. */
  readonly touches: readonly string[];
  /** Another request that may draw from its bucket was in flight at the same time. */
  overlapped: boolean;
  /** When the Retry-After of its bucket's last 429 ends, on the server's clock, if one was pending when it was sent. */
  readonly retryAllowedAt: number | undefined;
}

/** Told of every rule that judged an answer, whether it held or not: what a session's report counts. */
export type JudgedRuleTally = (rule: AnyRuleId) => void;

const REMEMBERED_TOKENS = 100_000;
/** A finding of the client's comes before the server's of the same exchange. */
const SIDES_IN_ORDER: readonly Side[] = ['client', 'server'];

/** The API's own paths: the rest of what a deployment serves (pages, assets) is not the spec's to judge. */
export const isApiPath = (path: string) => path === '/health' || path.startsWith('/api/');

function canonicalOrigin(origin: string): string | undefined {
  return URL.canParse(origin) ? new URL(origin).origin : undefined;
}

/**
 * Judges live traffic between a client and a server, exchange by exchange, with the suite's own judging: every
 * rule of the registry (rules/) on each exchange, and the sessions rules open, told what the traffic before it shows:
 * the rate-limit model's reading of its bucket (live-rate-limits.ts), codes, tokens, Retry-After, encounters. A
 * finding names its side.
 */
export class LiveJudge {
  readonly #gameOrigins: ReadonlySet<string>;
  readonly #rateLimits = new LiveRateLimits();
  /** The player each token was issued to, by the email verified (tokens issued before the proxy started are unknown). */
  readonly #players = new BoundedMap<string, string>(REMEMBERED_TOKENS);
  readonly #auth = new AuthMemory();
  readonly #inFlight = new Set<PendingRequest>();
  /** When each bucket may be called again after a 429, on the server's clock (a virtual one may be moved past it). */
  readonly #retryAfter = new BoundedMap<string, number>(REMEMBERED_TOKENS);
  /** Players the server answered 409 (an encounter to resolve first) since their last successful request. */
  readonly #inEncounter = new BoundedMap<string, true>(REMEMBERED_TOKENS);
  readonly #ruleSessions = new RuleSessions();
  /** The last Date header read, and when it says: the answers of one second all send the same. */
  #lastDate: { header: string; time: TimeInterval | undefined } | undefined;

  readonly #tally: JudgedRuleTally | undefined;

  /** `tally`, when given, hears of every rule that judged an answer (it costs a verdict for each that holds). */
  constructor(gameOrigins: readonly string[], tally?: JudgedRuleTally) {
    this.#tally = tally;
    this.#gameOrigins = new Set(gameOrigins.map((origin) => canonicalOrigin(origin) ?? origin));
  }

  /** A request arrived: it is judged when its answer comes back (`end`), or dropped (`abandon`). */
  begin(request: LiveRequest): PendingRequest {
    const token = bearerToken(request.headers);
    const caller = this.#callerOf(request, token);
    const api = isApiPath(request.path);
    const bucket = api ? this.#rateLimits.keyOf(request.method, request.path, caller) : undefined;
    const retryAllowedAt = bucket === undefined ? undefined : this.#retryAfter.get(bucket);
    if (bucket !== undefined) this.#retryAfter.delete(bucket);
    const control = isControlPath(request.path);
    const others = control ? [] : this.#rateLimits.mayAlsoCount(request.method, request.path, caller);
    const touches = bucket === undefined ? others : [bucket, ...others];
    const pending: PendingRequest = { request, caller, token, bucket, touches, overlapped: false, retryAllowedAt };
    for (const other of this.#inFlight) {
      if (bucket !== undefined && other.touches.includes(bucket)) pending.overlapped = true;
      if (other.bucket !== undefined && touches.includes(other.bucket)) other.overlapped = true;
    }
    if (touches.length > 0) this.#inFlight.add(pending);
    return pending;
  }

  /** The request got no answer from the server (the proxy answered for it): nothing to judge. */
  abandon(pending: PendingRequest): void {
    this.#land(pending);
  }

  /** The server answered, but the proxy cannot read the answer whole (a stream, a body past a cap or undecodable): its buckets are adopted again. */
  passUnjudged(pending: PendingRequest): void {
    this.#land(pending);
    this.#rateLimits.adoptAgain(pending.touches);
  }

  /** The answer came back: every departure it shows, client's and server's. */
  end(pending: PendingRequest, exchange: Exchange): LiveFinding[] {
    this.#land(pending);
    const { request, caller } = pending;
    const { method, path } = request;
    if (isControlPath(path)) {
      if (movesStateUnseen(method, path, exchange.requestBody)) this.#forgetState();
      // An encounter resolved behind the traffic: which player's is not said, so none is held open.
      if (controlRouteOf(method, path) === CONTROL_ROUTES.endEncounter) this.#inEncounter.clear();
      return [];
    }
    if (!isApiPath(path)) {
      // Not the API's to judge, but a server may count it as a public read (not shown).
      this.#rateLimits.adoptPublicAgain(caller);
      return [];
    }
    const serverTime = this.#answeredAt(exchange);
    const encounterOpen = this.#followEncounter(pending, exchange);
    const { retryAllowedAt } = pending;
    const requestBody = parsedJson(exchange.requestBody);
    const limits = this.#rateLimits.read({ method, path, caller, exchange, serverTime, overlapped: pending.overlapped });
    const knowledge: Knowledge = {
      path,
      external: !caller.gameOrigin,
      serverTime,
      caller,
      encounterOpen,
      ...this.#auth.knowledgeOf(method, path, pending.token, requestBody),
    };
    if (limits.modelled !== undefined) knowledge.modelledAnswer = limits.modelled;
    if (retryAllowedAt !== undefined) knowledge.retryAllowedAt = retryAllowedAt;
    const sessions = this.#ruleSessions.observe(exchange, knowledge);
    const departed =
      this.#tally === undefined
        ? [...departures(exchange, knowledge), ...sessions.filter((verdict) => !verdict.holds)]
        : this.#tallied([...judgeExchange(exchange, knowledge), ...sessions]);
    const findings: LiveFinding[] = [];
    for (const side of SIDES_IN_ORDER) {
      for (const verdict of departed) if (verdict.side === side) findings.push(finding(verdict.rule, side, departureMessage(verdict), exchange));
    }
    this.#auth.learn(method, path, requestBody, exchange, serverTime);
    this.#learnSignIn(path, requestBody, exchange);
    // A token answered 401 is no player's any more (expired or revoked): where its requests count is not shown.
    if (exchange.status === 401 && pending.token !== undefined) this.#players.delete(pending.token);
    if (limits.bucketSpent) this.#noteRetryAfter(pending, exchange, serverTime);
    return findings.length < 2 ? findings : onePerRule(findings);
  }

  /** Every verdict of the rules told to the tally, the departures returned. */
  #tallied(verdicts: readonly Verdict[]): Verdict[] {
    for (const judged of new Set(verdicts.map((verdict) => verdict.rule))) this.#tally?.(judged);
    return verdicts.filter((verdict) => !verdict.holds);
  }

  #callerOf(request: LiveRequest, token: string | undefined): Caller {
    const origin = request.headers['origin'];
    // A game client sends its origin as configured: parsed only when it is not one of them as written.
    const gameOrigin = origin !== undefined && (this.#gameOrigins.has(origin) || this.#gameOrigins.has(canonicalOrigin(origin) ?? origin));
    return { ip: request.clientIp, playerId: token === undefined ? undefined : this.#players.get(token), gameOrigin };
  }

  /** answeredAt, the Date header parsed once for all the answers that send it alike. */
  #answeredAt(exchange: Exchange): TimeInterval {
    const header = exchange.headers['date'];
    if (header === undefined) return answeredAt(exchange);
    if (this.#lastDate?.header !== header) this.#lastDate = { header, time: fromDateHeader(header) };
    return this.#lastDate.time ?? answeredAt(exchange);
  }

  #land(pending: PendingRequest): void {
    this.#inFlight.delete(pending);
  }

  #forgetState(): void {
    this.#rateLimits.reset();
    this.#retryAfter.clear();
    this.#inEncounter.clear();
    this.#ruleSessions.forget();
  }

  #learnSignIn(path: string, requestBody: unknown, exchange: Exchange): void {
    if (path !== '/api/auth/verify-email' || !isSuccess(exchange)) return;
    const token = issuedToken(exchange);
    const address = sentAddress(requestBody);
    if (token !== undefined && address !== undefined) this.#players.set(token, address);
  }

  #noteRetryAfter(pending: PendingRequest, exchange: Exchange, serverTime: TimeInterval): void {
    const retryAfter = integerHeader(exchange, HEADERS.retryAfter);
    if (exchange.status !== 429 || pending.bucket === undefined || retryAfter === undefined) return;
    this.#retryAfter.set(pending.bucket, serverTime.fromMs + this.#rateLimits.retryWaitMs(retryAfter));
  }

  /**
   * Whether the player's encounter was open when this answer came (a 409 since its last successful gameplay),
   * and what the answer makes of it: a success closes it, a 409 opens it.
   */
  #followEncounter({ caller, request, token }: PendingRequest, exchange: Exchange): boolean {
    if (token === undefined || request.path.startsWith('/api/auth/')) return false;
    const player = caller.playerId ?? `token ${token}`;
    const open = this.#inEncounter.has(player);
    if (isSuccess(exchange) && request.method.toUpperCase() !== 'GET') this.#inEncounter.delete(player);
    if (exchange.status === 409 && request.method.toUpperCase() !== 'GET') this.#inEncounter.set(player, true);
    return open;
  }
}

/**
 * A control call that changes what the server holds behind the traffic (a reset, a world, buckets, variants, a
 * scenario, faults, the clock set or moved back): the proxy forgets what it learned. Moving the clock forward
 * keeps it, since the answers' Date header carries the server's time: a window that ends on the way must restart.
 */
function movesStateUnseen(method: string, path: string, requestBody: string | undefined): boolean {
  const route = controlRouteOf(method, path);
  if (method.toUpperCase() === 'GET' || route?.keepsLimits === true) return false;
  if (route !== CONTROL_ROUTES.setClock) return true;
  const body = parsedJson(requestBody);
  const advanceMs = isObject(body) ? body['advanceMs'] : undefined;
  return !(isObject(body) && body['set'] === undefined && typeof advanceMs === 'number' && advanceMs >= 0);
}
