import { describe, it, type TestContext } from 'vitest';
import { RATE_LIMITS, RATE_LIMIT_WINDOW_MS } from '../../src/spec/limits.js';
import { observe, requireThat } from './assertions.js';
import { notice, sleep } from '../target/pacing.js';
import { rule } from '../rules/index.js';
import { windowEndFor } from '../rules/model/index.js';
import type { Suite } from '../fixtures/suite.js';
import { spendReadBucket, spentReadBucket } from './read-bucket.js';
import { expectBucketCount } from './expect-rule.js';
import { requirePlayers, resetOf, resetUnitOf, type Timed } from './rate-limits-support.js';

// "Reads (authenticated GET): 60 requests per player per minute." The bucket rate-limits-window.check.ts spent,
// watched again once its window has ended. Its file runs some checks after the drain, so that in real time the
// wait for the window mostly passes while they run (where one address paces the run, while they wait for auth
// windows anyway).

const READ_LIMIT = RATE_LIMITS.read.limit;
/** Past a window's end, as far as a reading of it may be off (a whole second of Reset, rounding). */
const PAST_THE_END_MS = 1_000;
/** Reads sent once the spent window has ended: their Remaining shows the bucket whole, and counting. */
const READS_IN_THE_NEW_WINDOW = 2;
/** A retry before the end is sent only where it leaves this much of the window on both sides of it. */
const RETRY_ROOM_MS = 2_000;

/**
 * When the spent bucket's window ends, by the server's own word where it can be read (the Reset of the last answer
 * it counted, in the unit its answers show), else by the spec's: a minute after the drain's first request. On the
 * clock `waitUntil` waits by: the target's where it is moved, else this machine's (the answer's Date header may lag
 * it by up to the time the answer took to arrive, added so as to wait long enough).
 */
function windowEnd(suite: Suite, responses: readonly Timed[], limited: Timed): { atMs: number; fromHeaders: boolean } {
  const counted = responses.at(-2);
  const unit = resetUnitOf(responses);
  const reset = counted === undefined ? undefined : resetOf(counted.exchange);
  const fromHeaders = counted !== undefined && unit !== undefined && reset !== undefined;
  const basis = fromHeaders ? counted : (responses[0] ?? limited);
  const serverMs = fromHeaders ? windowEndFor(unit, reset, counted.at).toMs : basis.at.toMs + RATE_LIMIT_WINDOW_MS;
  const toLocalMs = suite.target.clock === undefined ? Math.max(0, basis.exchange.receivedAt - basis.at.fromMs) : 0;
  return { atMs: serverMs + toLocalMs, fromHeaders };
}

/** Waits until the server's clock is past `atMs`: the clock moved where it can be, else a real wait within --max-wait. */
async function waitUntil(suite: Suite, context: TestContext, atMs: number, why: string): Promise<void> {
  const { clock } = suite.target;
  if (clock !== undefined) {
    const now = await clock.now();
    if (atMs > now) await clock.advance(Math.ceil(atMs - now));
    return;
  }
  const waitMs = atMs - Date.now();
  requireThat(context, waitMs <= suite.config.maxWait * 1000, `${why} ends in ${Math.ceil(waitMs / 1000)} s, more than --max-wait ${suite.config.maxWait} s`);
  if (waitMs <= 0) return;
  notice(`RL-WINDOW: waiting ${Math.ceil(waitMs / 1000)} s for ${why}`);
  await sleep(waitMs, context.signal);
}

export function rateLimitsWindowResetChecks(suite: Suite): void {
  describe('rate-limit windows, after the wait', () => {
    it(
      rule(
        'RL-WINDOW',
        `once the spent read bucket's window has ended (by its last counted answer's Reset, else a minute after it opened), the whole bucket is there again, though a retry came before the end: Remaining ${READ_LIMIT - 1}, then ${READ_LIMIT - 2}`,
      ),
      async (context) => {
        requirePlayers(suite, context);
        // Other checks move a target's clock past the shared spent bucket's window: with clock control, one of this check's own.
        const { drain, read } = suite.target.clock === undefined ? await spentReadBucket(suite) : await spendReadBucket(suite);
        const { limited } = drain;
        requireThat(context, limited !== undefined, 'no spent bucket to watch: the read bucket never answered 429 (see RL-429)');
        const end = windowEnd(suite, drain.responses, limited!);
        // A client retrying early, as many do: the window must not move for it. Sent only where the end is the server's own word.
        const now = suite.target.clock === undefined ? Date.now() : await suite.target.clock.now();
        if (end.fromHeaders && end.atMs - now >= 2 * RETRY_ROOM_MS) {
          await waitUntil(suite, context, Math.round(now + (end.atMs - now) / 2), 'the middle of the spent window');
          const retry = await read();
          expectBucketCount(suite, retry.exchange, {
            rule: 'RL-WINDOW',
            spent: true,
            why: 'the bucket was spent in this window, which its Reset says has not ended',
          });
        }
        await waitUntil(suite, context, end.atMs + PAST_THE_END_MS, 'the spent read window');
        // A bucket whose Remaining reads as fresh is whole: the countdown checks hold Remaining to what the bucket serves.
        for (let index = 0; index < READS_IN_THE_NEW_WINDOW; index++) {
          const { exchange } = await read();
          expectBucketCount(suite, exchange, {
            rule: 'RL-WINDOW',
            spent: false,
            since: { remaining: READ_LIMIT, counted: index + 1 },
            why: `read ${index + 1} in a new window: the whole bucket is there again once the spent one has ended`,
          });
        }
        if (!end.fromHeaders)
          await observe(context, "the window's end was not read from X-RateLimit-Reset (no unit fits): a minute after the drain began was waited");
      },
    );
  });
}
