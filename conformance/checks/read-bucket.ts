import { RATE_LIMIT_WINDOW_MS } from '../../src/spec/limits.js';
import { readRetryAfter, span, windowEndFor, type RetryAfterReading, type TimeInterval } from '../rules/model/index.js';
import { fixture } from '../fixtures/fixture.js';
import type { Suite } from '../fixtures/suite.js';
import { drainBucket, ownPlayerOn, resetOf, resetUnitOf, retryAfterOf, sendTimed, startFreshWindows, type Timed } from './rate-limits-support.js';

/**
 * The read bucket of a player of the checks' own, spent once per run: RL-429, ENV-ERROR and RL-WINDOW judge
 * how it counted and refused, and a later check how it starts anew once Retry-After has passed.
 */
export const spentReadBucket = fixture((suite) => spendReadBucket(suite));

/** The read bucket of a new player of the checks' own, spent now: for a check that moves the clock from there. */
export async function spendReadBucket(suite: Suite) {
  const identity = suite.target.identities.fresh();
  const player = await ownPlayerOn(suite, identity);
  await startFreshWindows(suite);
  const read = () => sendTimed(suite, { method: 'GET', path: '/api/player', token: player.token, identity, expectLimit: true });
  return { identity, player, read, drain: await drainBucket('read', read) };
}

/** The wait Retry-After asks for, its unit settled by X-RateLimit-Reset where that can be read. */
export function retryAfterReading(responses: readonly Timed[], limited: Timed): RetryAfterReading | undefined {
  const value = retryAfterOf(limited.exchange);
  if (value === undefined) return undefined;
  const unit = resetUnitOf(responses);
  const reset = resetOf(limited.exchange) ?? resetOf(responses.at(-2)?.exchange ?? limited.exchange);
  const expectedWait: TimeInterval | undefined =
    unit === undefined || reset === undefined ? undefined : span(limited.at, windowEndFor(unit, reset, limited.at));
  return readRetryAfter(value, expectedWait);
}

/** The wait a 429 asks for when its Retry-After cannot be read: a whole window. */
export const WHOLE_WINDOW: RetryAfterReading = { unit: 'seconds', waitMs: RATE_LIMIT_WINDOW_MS };
