import { ROUTES, type RouteSpec } from '../../src/spec/routes.js';
import type { SentenceId } from '../../src/spec/sentences.js';
import type { Exchange } from '../common/exchange.js';
import type { ModelledAnswer } from './model/modelled-answer.js';
import type { Caller } from './model/rate-limit-model.js';
import type { ResetSample } from './model/reset-unit.js';
import type { TimeInterval } from './model/server-time.js';

/** Whose departure a rule judges: the server's answers, or the client's requests. */
export type Side = 'client' | 'server';

/** The rules of the Limits whose sentences say who shares a bucket, how it counts down, or that a spent one answers 429: a count a sender shaped tests one of them. */
export type BucketRuleId = 'RL-PER-PLAYER' | 'RL-WINDOW' | 'RL-AUTH-IP' | 'RL-EXEMPT' | 'RL-429' | 'RL-REMAINING';

/**
 * What a sender that shaped the traffic knows of a request's bucket (a check: fresh windows, one client, its own
 * requests counted): what its answer is due to show, under the rule whose sentence the count tests.
 */
export interface BucketCount {
  rule: BucketRuleId;
  /** Remaining shown earlier in the window, and the requests the bucket counted since (this one included): Remaining is due to be less by them. */
  since?: { remaining: number; counted: number };
  /** Remaining is judged only where shown (a game origin's answer need not carry the headers). */
  remainingOptional?: boolean;
  /** The bucket is spent (a 429 is due), or is not (none is). */
  spent?: boolean;
  /** Why, as a failure says it: "the 3 reads of player A on the same address not counted". */
  why: string;
}

/** What a judge knows of an exchange beside the exchange itself. */
export interface Knowledge {
  /** The request's path, without its query. */
  path: string;
  /** Sent without a game origin, by a caller the spec's limits count. */
  external: boolean;
  /** When the server made the answer: on its own clock where known (a controlled clock, its Date header), else this machine's. */
  serverTime: TimeInterval;
  /** `serverTime` was read from the target's own clock through its control API, to the millisecond. */
  serverClockRead?: boolean;
  /** Who sent it, as the session tells callers apart (its address, its player where known, a game origin or not). */
  caller?: Caller;
  /**
   * What the session's rate-limit model derived of the answer from the traffic before it: the state of its bucket
   * and its headers read against the server's choices learned so far (the fuzzer's, the proxy's, a check run's).
   */
  modelledAnswer?: ModelledAnswer;
  /** Why the request's credentials cannot be honoured, where the sender made them so (a UUID never issued, an expired token). */
  refusedCredentials?: string;
  /** When the request's bucket may be called again, on the server's clock: the Retry-After of its last 429, as a client saw it. */
  retryAllowedAt?: number;
  /** The caller's player was answered 409 (an encounter to resolve) and nothing of its succeeded since. */
  encounterOpen?: boolean;
  /** The expiresAt the server gave the request's token when it issued it. */
  tokenExpiresAt?: number;
  /** When the server issued the request's token, on its clock, as closely as the sender can tell (a check that signed its player in). */
  tokenIssuedAt?: TimeInterval;
  /**
   * The player's action points just before a gameplay request, as the sender set them (the control API) with no
   * time for a refill since: what the answer says is left can be no more.
   */
  actionPointsBefore?: number;
  /** For a plausible refresh request: whether a token its answer carried was accepted by the API afterwards (the sender tried each). */
  refreshedTokenAccepted?: boolean;
  /** The size of the bucket the sender counted the request in (a check's drain): Remaining is due below it. */
  bucketLimit?: number;
  /**
   * The X-RateLimit-Reset values of one bucket category's responses a sender collected, each with when it was made
   * (a check's): one unit must read them all.
   */
  resetSamples?: readonly ResetSample[];
  /** The request's token is a player's whose email the sender knows is not verified (--unverified-token, the control API's scenario). */
  unverifiedPlayer?: boolean;
  /** For a verification: when the server last accepted a registration of the address, on its clock. */
  registeredAt?: number;
  /** For a verification: the server accepted this code for this address before, with no registration since. */
  codeUsedBefore?: boolean;
  /** For a verification: the sender knows its code is not the one pending for the address (another code of the same form). */
  wrongCode?: boolean;
  /** For a verification: the sender knows its code is the one sent to another registered address. */
  codeOfAnotherAddress?: boolean;
  /**
   * For a verification: the address as it was registered, where the sender writes it with its domain in another
   * letter case and sends the code delivered for it: the same address (RFC 5321: domains know no case).
   */
  registeredAs?: string;
  /** For a registration: the code the OTP source delivered for its address, which went to the email, not to the caller. */
  deliveredCode?: string;
  /** For a registration: whether a code was delivered for its address, read at once from a source that can tell without waiting (the control API's outbox). */
  codeDelivered?: boolean;
  /**
   * The sender shaped the request to show what the rule judges (a check's request): the rule asks of its answer what
   * is due, where of live traffic it asks only what must not be (a used code refused with a 4xx and no token, not
   * merely not accepted).
   */
  shaped?: boolean;
  /** The sender made the request's path up: no server has it (a deployment serves more than the table, so only the sender knows). */
  pathNoServerHas?: boolean;
  /** What the sender shaped the request's bucket to show, under the Limits rule whose sentence it tests. */
  bucketCount?: BucketCount;
  /**
   * The sender kept every other reason to refuse the request away (its limits not spent, a JSON body within the size
   * limit, the bot-check passed): a missing or invalid parameter is the only one, so the spec's 400 is due.
   */
  parametersAlone?: boolean;
}

/** One judgement a rule makes of one exchange: whether it held, and what was expected. */
export interface Judgement {
  /** Which of the rule's judgements (a rule may make several of one exchange): `body-json`, `limit-present`. */
  aspect: string;
  holds: boolean;
  /** What was due, as a check's failure says it ("expected …"). */
  expected: string;
  /** The departure in full, as a finding says it, where "expected …" alone would not. */
  message?: string;
}

/** A rule's judgements of one exchange: one per aspect that applies, none where the rule says nothing of it. */
export type Judge = (exchange: Exchange, knowledge: Knowledge) => Judgement[];

/**
 * What a rule keeps across a session, where no knowledge derived for every rule serves it: told of each exchange in
 * order (after `judge`), it gives the judgements only the sequence shows.
 */
export interface RuleSession {
  observe(exchange: Exchange, knowledge: Knowledge): Judgement[];
  /** The server's state moved behind the traffic (its control API was called): what was kept no longer holds. */
  forget(): void;
}

/** One rule of the spec that the project judges, with the sentences it rests on. */
export interface Rule {
  id: string;
  side: Side;
  /** The ids of the spec's sentences it rests on (src/spec/sentences.ts). */
  sentences: readonly SentenceId[];
  /** The spec's words, as check titles quote them; a client rule quotes its sentences. */
  quote?: string;
  /** What the fuzzer judges of it on every response of a sequence. */
  fuzz?: string;
  /** What the proxy judges of it on live traffic, where it does. */
  proxy?: string;
  /** What its judge must be told of the session beyond the exchange; without it, it judges nothing. */
  session?: readonly (keyof Knowledge)[];
  /**
   * The routes (`METHOD /path`, as routeKey writes them) beyond which its judge judges nothing: judging an
   * exchange skips it on any other (the proxy judges every exchange it passes, most of them on other routes).
   */
  routes?: ReadonlySet<string>;
  judge?: Judge;
  /** A session of its own, for a rule that judges what a sequence of its exchanges shows (rules/session/rule-sessions.ts opens them). */
  opens?: () => RuleSession;
}

/** How far apart two readings of the server's clock may be and still be one moment: the Date header's whole second, and rounding. */
export const SERVER_CLOCK_SLACK_MS = 2_000;

/**
 * `compute`, keeping its answer for the last exchange (and the path it was judged under): the rules ask the same of
 * one exchange in turn, and the proxy judges every exchange it passes.
 */
export function perExchange<T>(compute: (exchange: Exchange, path: string) => T): (exchange: Exchange, path: string) => T {
  let last: { exchange: Exchange; path: string; value: T } | undefined;
  return (exchange, path) => {
    if (last?.exchange !== exchange || last.path !== path) last = { exchange, path, value: compute(exchange, path) };
    return last.value;
  };
}

/** `METHOD /path` of a request, as the route table writes it. */
export const routeKeyOf = (method: string, path: string): string => `${method.toUpperCase()} ${path}`;

const exchangeRouteKey = perExchange((exchange, path) => routeKeyOf(exchange.method, path));

/** `METHOD /path` of an exchange, as the route table writes it. */
export const routeKey = (exchange: Exchange, knowledge: Knowledge): string => exchangeRouteKey(exchange, knowledge.path);

/** The spec table's routes that `which` keeps (all by default), as routeKey writes them. */
export const tableRoutes = (which: (route: RouteSpec) => boolean = () => true): ReadonlySet<string> =>
  new Set(ROUTES.filter(which).map((route) => routeKeyOf(route.method, route.path)));

export const TABLE_ROUTES = tableRoutes();

/** What a request a sender shaped to succeed is due: 200, the one success status of the spec's table. */
export function dueOk(exchange: Pick<Exchange, 'status'>, what: string): Judgement {
  return judged('ok', exchange.status === 200, `status 200 for ${what}`, `answered ${exchange.status} to ${what}`);
}

/** A judgement that always applies, failed where `holds` is false. */
export function judged(aspect: string, holds: boolean, expected: string, message?: string): Judgement {
  const judgement: Judgement = { aspect, holds, expected };
  if (message !== undefined) judgement.message = message;
  return judgement;
}
