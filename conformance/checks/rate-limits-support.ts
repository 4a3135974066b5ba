import type { TestContext } from 'vitest';
import { HEADERS, RATE_LIMIT_WINDOW_MS, RATE_LIMITS, type RateLimitCategory } from '../../src/spec/limits.js';
import { requireThat } from './assertions.js';
import { expectBucketCount, expectRule, sentBySuite } from './expect-rule.js';
import type { BucketCount } from '../rules/rule.js';
import { header, integerHeader, type Exchange } from '../common/exchange.js';
import type { Identity } from '../target/identities.js';
import { countdownStep, fromDateHeader, inferResetUnit, sameWindow, widen, type ResetSample, type ResetUnit, type TimeInterval } from '../rules/model/index.js';
import { authIsScarce, cannotSignIn, ownPlayer } from '../fixtures/accounts.js';
import { firstSignIn } from '../fixtures/first-verification.js';
import { registerForCode, signIn, uniqueEmail, verifyForToken, type SignedIn } from '../fixtures/players.js';
import type { Suite } from '../fixtures/suite.js';
import type { Call } from '../target/call.js';

/** A response and when the server made it, on the server's clock. */
export interface Timed {
  exchange: Exchange;
  at: TimeInterval;
}

/** Allowed difference between our clock and the server's when it sends no Date header. */
const LOCAL_SKEW_MS = 5_000;

/** Sends, noting when the server answered: by its controllable clock, else its Date header, else ours (widened). */
export async function sendTimed(suite: Suite, call: Call): Promise<Timed> {
  const { target } = suite;
  if (target.clock !== undefined) {
    const before = await target.clock.notAfterNow();
    const exchange = await target.send(call);
    return { exchange, at: { fromMs: before, toMs: target.clock.notBeforeNow() } };
  }
  const sentAt = Date.now();
  const exchange = await target.send(call);
  return { exchange, at: fromDateHeader(header(exchange, 'date')) ?? widen({ fromMs: sentAt, toMs: exchange.receivedAt }, LOCAL_SKEW_MS) };
}

export const remainingOf = (exchange: Exchange) => integerHeader(exchange, HEADERS.rateLimitRemaining);
export const resetOf = (exchange: Exchange) => integerHeader(exchange, HEADERS.rateLimitReset);
export const retryAfterOf = (exchange: Exchange) => integerHeader(exchange, HEADERS.retryAfter);

export function hasRateLimitHeaders(exchange: Exchange): boolean {
  return [HEADERS.rateLimitLimit, HEADERS.rateLimitRemaining, HEADERS.rateLimitReset].some((name) => header(exchange, name) !== undefined);
}

/** The Reset samples of responses that carry an integer Reset. */
export function resetSamples(responses: readonly Timed[]): ResetSample[] {
  return responses.flatMap(({ exchange, at }) => {
    const value = resetOf(exchange);
    return value === undefined ? [] : [{ value, at }];
  });
}

/** The Reset unit that fits every response, if one does. */
export function resetUnitOf(responses: readonly Timed[]): ResetUnit | undefined {
  const inference = inferResetUnit(resetSamples(responses));
  return inference.kind === 'unit' ? inference.unit : undefined;
}

/** Whether the window changed between two responses of one bucket, as far as their Reset values tell. */
export function windowMoved(unit: ResetUnit | undefined, previous: Timed, current: Timed): boolean {
  const [a, b] = [resetOf(previous.exchange), resetOf(current.exchange)];
  if (unit === undefined || a === undefined || b === undefined) return false;
  return !sameWindow(unit, { value: a, at: previous.at }, { value: b, at: current.at });
}

/**
 * With a controllable clock, moves it past every open window, so a check starts on fresh buckets even
 * when all checks share one client address. Without one, nothing: checks reason from what they observe.
 */
export async function startFreshWindows(suite: Suite): Promise<boolean> {
  const { clock } = suite.target;
  if (clock === undefined) return false;
  await clock.advance(RATE_LIMIT_WINDOW_MS + 1_000);
  return true;
}

/** Whether the run can make a signed-in player; skips the check with the reason when it cannot. */
export function requirePlayers(suite: Suite, context: TestContext): void {
  const reason = cannotSignIn(suite);
  requireThat(context, reason === undefined, reason ?? '');
}

export interface AuthExchanges {
  register: Exchange;
  verify: Exchange;
  /** A player, when the run could sign one in. */
  player: SignedIn | undefined;
}

/** Whether players come from real sign-ins, which spend the auth budget of their client; else the control API makes them. */
const signInsCost = (suite: Suite) => suite.config.capabilities?.players !== true;

/**
 * One register and one verify-email response from `identity`, and a player: a real sign-in where the run
 * reads codes, else a register and a wrong code (still counted) with a player from the control API if any.
 */
async function signInWithExchanges(suite: Suite, identity: Identity): Promise<AuthExchanges> {
  const email = uniqueEmail(suite, 'rate-limit');
  if (suite.otp !== null) {
    const { register, code } = await registerForCode(suite, email, identity);
    return { register, ...(await verifyForToken(suite, email, code, identity)) };
  }
  const register = await suite.target.send({ method: 'POST', path: '/api/auth/register', json: { email }, identity });
  const verify = await suite.target.send({ method: 'POST', path: '/api/auth/verify-email', json: { email, otp: '000000' }, identity });
  const player = suite.config.capabilities?.players === true ? await signIn(suite, identity) : undefined;
  return { register, verify, player };
}

/**
 * A sign-in on `identity` (its register and verify responses, and the player), shared with the other checks
 * on the same client when sign-ins are real: with one address, each spends the run's one auth budget
 * (5 a minute). A player the control API made is never shared: other checks may move the target's clock
 * past its token's lifetime, or reset the target.
 */
export function sharedSignIn(suite: Suite, identity: Identity): Promise<AuthExchanges> {
  if (!signInsCost(suite)) return signInWithExchanges(suite, identity);
  if (authIsScarce(suite)) return firstSignIn(suite);
  return suite.fixtures.get(`sign-in on ${identity.label}`, () => signInWithExchanges(suite, identity), { forgetFailure: true });
}

/** A player on `identity` that other checks on the same client may read with too (see sharedSignIn); undefined when the run cannot sign in. */
export async function sharedPlayerOn(suite: Suite, identity: Identity): Promise<SignedIn | undefined> {
  return (await sharedSignIn(suite, identity)).player;
}

/** A player of the check's own, whose read and gameplay buckets no other check touches (see accounts.ts). */
export function ownPlayerOn(suite: Suite, identity: Identity): Promise<SignedIn> {
  return ownPlayer(suite, identity);
}

/** A response of a drain that departs from what its count is due: the count, as RL-WINDOW judges it. */
export interface Problem {
  timed: Timed;
  count: BucketCount;
}

export interface Drain {
  /** Every response, in order. */
  responses: Timed[];
  /** The first 429. */
  limited: Timed | undefined;
  /** The response to the request after the one that left Remaining at 0 (the one that must be a 429). */
  afterLimit: Timed | undefined;
  /** A 429 while the response before it left requests (the bucket was smaller than it said). */
  early: Problem | undefined;
  /** Steps where Remaining did not fall by one (or was missing). */
  countdown: Problem[];
  /** How often the window restarted during the drain. */
  newWindows: number;
}

/**
 * RL-429 on a drain: a 429 came (the drain ends at the first, so its last answer is due to be it), and it came right
 * after the response that left Remaining at 0.
 */
export function expectSpentBucket(suite: Suite, drain: Drain, what: string): void {
  const last = drain.responses.at(-1)!;
  expectBucketCount(suite, last.exchange, { rule: 'RL-429', spent: true, why: `${drain.responses.length} ${what}, more than the bucket holds` });
  if (drain.afterLimit !== undefined)
    expectBucketCount(suite, drain.afterLimit.exchange, {
      rule: 'RL-429',
      spent: true,
      why: 'the response before left X-RateLimit-Remaining 0 in this window',
    });
}

/** Sends up to `count` requests of one bucket into `responses`, each yielded with its countdown step (`moved`: Reset shows a new window). */
export async function* countdown(limit: number, send: () => Promise<Timed>, count: number, responses: Timed[] = []) {
  for (let sent = 0; sent < count; sent++) {
    responses.push(await send());
    const [previous, current] = [responses.at(-2), responses.at(-1)!];
    const previousRemaining = previous === undefined ? undefined : remainingOf(previous.exchange);
    const remaining = remainingOf(current.exchange);
    const moved = previous !== undefined && windowMoved(resetUnitOf(responses), previous, current);
    const step = previousRemaining === undefined || remaining === undefined ? undefined : countdownStep(limit, previousRemaining, remaining, moved);
    yield { current, previousRemaining, remaining, moved, step };
  }
}

/** What a countdown's response is due beside the one before: one request counted since its Remaining, or since a full bucket where a new window opened (or none was shown). */
export function oneCountedSince(limit: number, previousRemaining: number | undefined, moved: boolean): NonNullable<BucketCount['since']> {
  return { remaining: moved || previousRemaining === undefined ? limit : previousRemaining, counted: 1 };
}

/** RL-REMAINING's range on a response the check counted in a bucket of `limit`: an integer from 0 to Limit − 1. */
export function expectRemainingInRange(suite: Suite, exchange: Exchange, limit: number): void {
  expectRule('RL-REMAINING', exchange, { ...sentBySuite(suite, exchange), bucketLimit: limit }, 'a counted response');
}

/**
 * Sends until the first 429 (at most three buckets' worth): each Remaining should be one less than the one
 * before (or Limit − 1 when Reset shows the window restarted), and the request after Remaining 0 a 429.
 */
export async function drainBucket(category: RateLimitCategory, send: () => Promise<Timed>): Promise<Drain> {
  const { limit } = RATE_LIMITS[category];
  const drain: Drain = { responses: [], limited: undefined, afterLimit: undefined, early: undefined, countdown: [], newWindows: 0 };
  for await (const { current, previousRemaining, remaining, moved, step } of countdown(limit, send, limit * 3 + 2, drain.responses)) {
    if (previousRemaining === 0 && !moved) drain.afterLimit = current;
    if (current.exchange.status === 429) {
      drain.limited = current;
      if (previousRemaining !== undefined && previousRemaining > 0) {
        drain.early = {
          timed: current,
          count: {
            rule: 'RL-WINDOW',
            spent: false,
            why: `the response before left ${previousRemaining} requests (X-RateLimit-Remaining): ${limit} ${category} requests a minute`,
          },
        };
      }
      return drain;
    }
    if (drain.afterLimit !== undefined) return drain;
    // Without Remaining, the drain goes on: whether a 429 comes is RL-429's question all the same.
    if (step?.kind === 'new-window') drain.newWindows++;
    if (remaining === undefined || step?.kind === 'unexpected') {
      const since = oneCountedSince(limit, previousRemaining, moved);
      drain.countdown.push({ timed: current, count: { rule: 'RL-WINDOW', since, why: `one ${category} request counted in its window` } });
    }
  }
  return drain;
}
