import { describe, it } from 'vitest';
import { RATE_LIMITS, RATE_LIMIT_WINDOW_MS } from '../../src/spec/limits.js';
import { expectThat, observe, requireThat } from '../assertions.js';
import { consistentWithWindow, describeRetryAfter, readRetryAfter, span, windowEndFor, type RetryAfterReading, type TimeInterval } from '../model/index.js';
import { notice } from '../pacing.js';
import { rule } from '../rules.js';
import { suite } from '../suite.js';
import {
  drainBucket,
  expectSpentBucket,
  hasRateLimitHeaders,
  once,
  ownPlayerOn,
  remainingOf,
  requirePlayers,
  resetOf,
  resetUnitOf,
  retryAfterOf,
  sendTimed,
  startFreshWindows,
  type Timed,
} from './rate-limits-support.js';
import { expectErrorEnvelope } from '../envelope.js';
import { sleep } from '../pacing.js';

// "When a limit is exceeded the response is 429 with Retry-After (integer, unit unspecified)."
// "Reads (authenticated GET): 60 requests per player per minute."
// One bucket serves every check here: a read bucket of a player of its own, so spending it costs no other
// check anything, even when every check shares one client address. RL-429 and ENV-ERROR judge its 429,
// RL-WINDOW how it counted and then waits out this same bucket: a real-time run waits one window at most.

const READ_LIMIT = RATE_LIMITS.read.limit;

const spentReadBucket = once(async () => {
  const identity = suite().target.identities.fresh();
  const player = await ownPlayerOn(identity);
  await startFreshWindows();
  const read = () => sendTimed({ method: 'GET', path: '/api/player', token: player.token, identity, expectLimit: true });
  return { identity, player, read, drain: await drainBucket('read', read) };
});

/** The wait Retry-After asks for, its unit settled by X-RateLimit-Reset where that can be read. */
function retryAfterReading(responses: readonly Timed[], limited: Timed): RetryAfterReading | undefined {
  const value = retryAfterOf(limited.exchange);
  if (value === undefined) return undefined;
  const unit = resetUnitOf(responses);
  const reset = resetOf(limited.exchange) ?? resetOf(responses.at(-2)?.exchange ?? limited.exchange);
  const expectedWait: TimeInterval | undefined = unit === undefined || reset === undefined ? undefined : span(limited.at, windowEndFor(unit, reset, limited.at));
  return readRetryAfter(value, expectedWait);
}

describe('rate-limit windows', () => {
  it(rule('RL-429', 'once a read bucket is spent (Remaining 0), the next request is a 429 with an integer Retry-After within the window'), async (context) => {
    requirePlayers(context);
    const { drain } = await spentReadBucket();
    expectSpentBucket(drain, `reads of one player (${READ_LIMIT} a minute)`);
    const limited = drain.limited!;
    const value = retryAfterOf(limited.exchange);
    expectThat(limited.exchange, value !== undefined && value >= 0, 'Retry-After as a non-negative integer');
    const reading = retryAfterReading(drain.responses, limited)!;
    expectThat(limited.exchange, consistentWithWindow(reading), `a Retry-After within the ${RATE_LIMIT_WINDOW_MS / 1000} s window (read as ${describeRetryAfter(value!, reading)})`);
    const unit = resetUnitOf(drain.responses);
    const reset = resetOf(limited.exchange);
    const left = unit === undefined || reset === undefined ? undefined : span(limited.at, windowEndFor(unit, reset, limited.at));
    const during = left === undefined ? '' : ` when X-RateLimit-Reset left ${Math.round((left.fromMs + left.toMs) / 2000)} s of the window`;
    await observe(context, `Retry-After reads as ${reading.unit}: ${describeRetryAfter(value!, reading)}${during}`);
    if (!hasRateLimitHeaders(limited.exchange)) await observe(context, 'the 429 carries no X-RateLimit-* headers');
    if (drain.newWindows > 0) await observe(context, `the window restarted ${drain.newWindows} time(s) while the bucket was being spent`);
  });

  it(rule('ENV-ERROR', 'the 429 of a spent read bucket is an error envelope'), async (context) => {
    requirePlayers(context);
    const { drain } = await spentReadBucket();
    requireThat(context, drain.limited !== undefined, 'the read bucket never answered 429 (see RL-429)');
    const { exchange } = drain.limited!;
    expectErrorEnvelope(exchange);
  });

  it(rule('RL-WINDOW', 'a window serves the whole bucket: no 429 while Remaining is above 0, and Remaining falls by one per read'), async (context) => {
    requirePlayers(context);
    const { drain } = await spentReadBucket();
    if (drain.early !== undefined) expectThat(drain.early.timed.exchange, false, drain.early.expected);
    for (const problem of drain.countdown) expectThat(problem.timed.exchange, false, problem.expected);
  });

  it(rule('RL-WINDOW', 'once Retry-After has passed, the spent read bucket is fresh: 200 with Remaining = Limit − 1'), async (context) => {
    requirePlayers(context);
    const { drain, read } = await spentReadBucket();
    const { limited } = drain;
    requireThat(context, limited !== undefined, 'no spent bucket to watch: the read bucket never answered 429 (see RL-429)');
    const reading = retryAfterReading(drain.responses, limited!) ?? { unit: 'seconds', waitMs: RATE_LIMIT_WINDOW_MS };
    const { clock } = suite().target;
    if (clock !== undefined) {
      await clock.advance(reading.waitMs + 1_000);
    } else {
      const { maxWaitSeconds } = suite().config;
      requireThat(context, reading.waitMs <= maxWaitSeconds * 1000, `the window ends in ${Math.ceil(reading.waitMs / 1000)} s, more than --max-wait ${maxWaitSeconds} s`);
      const waitMs = reading.waitMs + 1_000 - (Date.now() - limited!.exchange.receivedAt);
      if (waitMs > 0) {
        notice(`RL-WINDOW: waiting ${Math.ceil(waitMs / 1000)} s (Retry-After) for a spent read bucket to start a new window`);
        await sleep(waitMs);
      }
    }
    const { exchange } = await read();
    expectThat(exchange, exchange.status === 200, `status 200: Retry-After (${reading.waitMs / 1000} s) has passed`);
    expectThat(exchange, remainingOf(exchange) === READ_LIMIT - 1, `X-RateLimit-Remaining ${READ_LIMIT - 1}: a fresh bucket in a new window`);
  });
});
