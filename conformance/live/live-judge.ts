import { CONTROL_PREFIX } from '../../src/spec/control-routes.js';
import type { Exchange } from '../exchange.js';
import type { Caller } from '../model/rate-limit-model.js';
import { fromDateHeader, type TimeInterval } from '../model/server-time.js';
import { INVARIANT_RULES, judgeInvariants } from '../traffic.js';
import { requestDepartures } from './client-requests.js';
import { clientFinding, type LiveFinding, serverFinding } from './live-finding.js';
import { LiveRateLimits } from './live-rate-limits.js';
import { answerDepartures } from './server-answers.js';

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
  readonly bucket: string | undefined;
  /** Another request of the same bucket was in flight at the same time. */
  overlapped: boolean;
  /** Sent before the Retry-After of its bucket's last 429 had passed: how early (ms). */
  readonly earlyBy: number | undefined;
}

const RETRY_SLACK_MS = 1_000;
const BEARER_TOKEN = /^bearer\s+(\S+)$/i;

/** The API's own paths: the rest of what a deployment serves (pages, assets) is not the spec's to judge. */
const isApiPath = (path: string) => path === '/health' || path.startsWith('/api/');

function parseJson(text: string | undefined): unknown {
  if (text === undefined || text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function canonicalOrigin(origin: string): string | undefined {
  return URL.canParse(origin) ? new URL(origin).origin : undefined;
}

/**
 * Judges live traffic between a client and a server, exchange by exchange, with the suite's own judging: the
 * invariants every check's traffic is judged by (traffic.ts), the fuzzer's rate-limit judge over the model
 * (live-rate-limits.ts), and the answers and requests of the table's routes. A finding names its side.
 */
export class LiveJudge {
  readonly #gameOrigins: ReadonlySet<string>;
  readonly #rateLimits = new LiveRateLimits();
  /** The player each token was issued to, by the email verified (tokens issued before the proxy started are unknown). */
  readonly #players = new Map<string, string>();
  readonly #inFlight = new Map<string, Set<PendingRequest>>();
  /** When each bucket may be called again after a 429, on this machine's clock. */
  readonly #retryAfter = new Map<string, number>();
  /** Players the server answered 409 (an encounter to resolve first) since their last successful request. */
  readonly #inEncounter = new Set<string>();

  constructor(gameOrigins: readonly string[]) {
    this.#gameOrigins = new Set(gameOrigins.map((origin) => canonicalOrigin(origin) ?? origin));
  }

  /** A request arrived: it is judged when its answer comes back (`end`), or dropped (`abandon`). */
  begin(request: LiveRequest): PendingRequest {
    const caller = this.#callerOf(request);
    const bucket = isApiPath(request.path) ? this.#rateLimits.keyOf(request.method, request.path, caller) : undefined;
    let earlyBy: number | undefined;
    if (bucket !== undefined) {
      const allowedAt = this.#retryAfter.get(bucket);
      if (allowedAt !== undefined && request.receivedAt < allowedAt - RETRY_SLACK_MS) earlyBy = allowedAt - request.receivedAt;
      if (allowedAt !== undefined) this.#retryAfter.delete(bucket);
    }
    const pending: PendingRequest = { request, caller, bucket, overlapped: false, earlyBy };
    if (bucket !== undefined) {
      const flying = this.#inFlight.get(bucket) ?? new Set<PendingRequest>();
      this.#inFlight.set(bucket, flying);
      if (flying.size > 0) {
        pending.overlapped = true;
        for (const other of flying) other.overlapped = true;
      }
      flying.add(pending);
    }
    return pending;
  }

  /** The request got no answer from the server (the proxy answered for it): nothing to judge. */
  abandon(pending: PendingRequest): void {
    this.#land(pending);
  }

  /** The answer came back: every departure it shows, client's and server's. */
  end(pending: PendingRequest, exchange: Exchange): LiveFinding[] {
    this.#land(pending);
    const { request, caller } = pending;
    const { method, path } = request;
    if (path.startsWith(`${CONTROL_PREFIX}/`) || path === CONTROL_PREFIX) {
      if (method.toUpperCase() !== 'GET') this.#forgetState();
      return [];
    }
    if (!isApiPath(path)) return [];
    const findings: LiveFinding[] = [];
    for (const departure of requestDepartures(method, path, request.headers, exchange.requestBody)) {
      findings.push(clientFinding(departure.rule, departure.message, exchange));
    }
    if (pending.earlyBy !== undefined) {
      findings.push(
        clientFinding(
          'CLIENT-RETRY-AFTER',
          `sent ${(pending.earlyBy / 1000).toFixed(1)} s before the Retry-After of the last 429 of its bucket had passed`,
          exchange,
        ),
      );
    }
    this.#judgeEncounter(caller, request, exchange, findings);
    const serverTime = this.#serverTime(exchange);
    for (const verdict of judgeInvariants(method, path, exchange, !caller.gameOrigin)) {
      if (!verdict.holds) findings.push(serverFinding(INVARIANT_RULES[verdict.id], `expected ${verdict.expected}`, exchange));
    }
    const limits = this.#rateLimits.judge({ method, path, caller, exchange, serverTime, overlapped: pending.overlapped });
    for (const finding of limits) findings.push(serverFinding(finding.rule, finding.message, exchange));
    const requestBody = parseJson(exchange.requestBody);
    for (const departure of answerDepartures(method, path, request.headers, requestBody, exchange, serverTime)) {
      findings.push(serverFinding(departure.rule, departure.message, exchange));
    }
    this.#learnSignIn(path, requestBody, exchange);
    this.#noteRetryAfter(pending, exchange);
    return onePerRule(findings);
  }

  #callerOf(request: LiveRequest): Caller {
    const origin = request.headers['origin'];
    const gameOrigin = origin !== undefined && this.#gameOrigins.has(canonicalOrigin(origin) ?? origin);
    const token = BEARER_TOKEN.exec(request.headers['authorization']?.trim() ?? '')?.[1];
    return { ip: request.clientIp, playerId: token === undefined ? undefined : this.#players.get(token), gameOrigin };
  }

  #land(pending: PendingRequest): void {
    if (pending.bucket === undefined) return;
    const flying = this.#inFlight.get(pending.bucket);
    flying?.delete(pending);
    if (flying?.size === 0) this.#inFlight.delete(pending.bucket);
  }

  /** The server's clock when it answered: its Date header; this machine's while the request was out, without one. */
  #serverTime(exchange: Exchange): TimeInterval {
    return fromDateHeader(exchange.headers['date']) ?? { fromMs: exchange.sentAt, toMs: exchange.receivedAt };
  }

  #forgetState(): void {
    this.#rateLimits.reset();
    this.#retryAfter.clear();
    this.#inEncounter.clear();
  }

  #learnSignIn(path: string, requestBody: unknown, exchange: Exchange): void {
    if (path !== '/api/auth/verify-email' || exchange.status < 200 || exchange.status >= 300) return;
    const token = (exchange.body as { authToken?: unknown } | undefined)?.authToken;
    const email = (requestBody as { email?: unknown } | undefined)?.email;
    if (typeof token === 'string' && typeof email === 'string') this.#players.set(token, email.trim().toLowerCase());
  }

  #noteRetryAfter(pending: PendingRequest, exchange: Exchange): void {
    const retryAfter = Number(exchange.headers['retry-after']);
    if (exchange.status !== 429 || pending.bucket === undefined || !Number.isSafeInteger(retryAfter)) return;
    this.#retryAfter.set(pending.bucket, exchange.receivedAt + this.#rateLimits.retryWaitMs(retryAfter));
  }

  /** A gameplay request answered 409 again, with nothing of that player succeeding since the first 409. */
  #judgeEncounter(caller: Caller, request: LiveRequest, exchange: Exchange, findings: LiveFinding[]): void {
    const token = BEARER_TOKEN.exec(request.headers['authorization']?.trim() ?? '')?.[1];
    if (token === undefined || request.path.startsWith('/api/auth/')) return;
    const player = caller.playerId ?? `token ${token}`;
    if (exchange.status >= 200 && exchange.status < 300 && request.method.toUpperCase() !== 'GET') this.#inEncounter.delete(player);
    if (exchange.status !== 409 || request.method.toUpperCase() === 'GET') return;
    if (this.#inEncounter.has(player)) {
      findings.push(
        clientFinding(
          'CLIENT-ENCOUNTER',
          'a gameplay request while the fighter encounter of the last 409 was still open (nothing was resolved since)',
          exchange,
        ),
      );
    }
    this.#inEncounter.add(player);
  }
}

/** One finding per rule and side for one exchange: the suite's invariants and the rate-limit judge may both see a missing header. */
function onePerRule(findings: LiveFinding[]): LiveFinding[] {
  const seen = new Set<string>();
  return findings.filter((finding) => {
    const key = `${finding.side} ${finding.rule}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
