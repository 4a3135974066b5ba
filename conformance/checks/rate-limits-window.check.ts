import { describe, it, type TestContext } from 'vitest';
import { RATE_LIMITS } from '../../src/spec/limits.js';
import { observe, requireThat } from './assertions.js';
import { expectBucketCount, expectRule, sentBySuite } from './expect-rule.js';
import { expectErrorEnvelope } from './expect-envelope.js';
import { describeRetryAfter, span, windowEndFor } from '../rules/model/index.js';
import { rule } from '../rules/index.js';
import type { Suite } from '../fixtures/suite.js';
import { retryAfterReading, spentReadBucket } from './read-bucket.js';
import {
  expectSpentBucket,
  hasRateLimitHeaders,
  ownPlayerOn,
  requirePlayers,
  resetOf,
  resetSamples,
  resetUnitOf,
  retryAfterOf,
  sendTimed,
  startFreshWindows,
  type Timed,
  windowMoved,
} from './rate-limits-support.js';
import { authIsScarce } from '../fixtures/accounts.js';
import { uniqueEmail } from '../fixtures/players.js';
import { withFrozenClock } from '../target/clock-scope.js';

// "When a limit is exceeded the response is 429 with Retry-After (integer, unit unspecified)."
// "Reads (authenticated GET): 60 requests per player per minute."
// One bucket serves every check here: a read bucket of a player of its own, so spending it costs no other
// check anything, even when every check shares one client address. RL-429 and ENV-ERROR judge its 429,
// RL-WINDOW how it counted; rate-limits-window-reset.check.ts, run some checks later, watches it start anew.

const READ_LIMIT = RATE_LIMITS.read.limit;
const AUTH_LIMIT = RATE_LIMITS.auth.limit;
/** Reads past the bucket's size sent in the burst: each must be refused. */
const BURST_EXTRA = 5;

export function rateLimitsWindowChecks(suite: Suite): void {
  describe('rate-limit windows', () => {
    it(
      rule('RL-429', 'once a read bucket is spent (Remaining 0), the next request is a 429 with an integer Retry-After within the window'),
      async (context) => {
        requirePlayers(suite, context);
        const { drain } = await spentReadBucket(suite);
        expectSpentBucket(suite, drain, `reads of one player (${READ_LIMIT} a minute)`);
        const limited = drain.limited!;
        // Retry-After read in the unit the drain's X-RateLimit-Reset values settle, against the window they name.
        const knowledge = { ...sentBySuite(suite, limited.exchange), serverTime: limited.at, resetSamples: resetSamples(drain.responses) };
        expectRule('RL-429', limited.exchange, knowledge, 'a 429');
        const value = retryAfterOf(limited.exchange);
        const reading = retryAfterReading(drain.responses, limited)!;
        const unit = resetUnitOf(drain.responses);
        const reset = resetOf(limited.exchange);
        const left = unit === undefined || reset === undefined ? undefined : span(limited.at, windowEndFor(unit, reset, limited.at));
        const during = left === undefined ? '' : ` when X-RateLimit-Reset left ${Math.round((left.fromMs + left.toMs) / 2000)} s of the window`;
        await observe(context, `Retry-After reads as ${reading.unit}: ${describeRetryAfter(value!, reading)}${during}`);
        if (!hasRateLimitHeaders(limited.exchange)) await observe(context, 'the 429 carries no X-RateLimit-* headers');
        if (drain.newWindows > 0) await observe(context, `the window restarted ${drain.newWindows} time(s) while the bucket was being spent`);
      },
    );

    it(rule('ENV-ERROR', 'the 429 of a spent read bucket is an error envelope'), async (context) => {
      requirePlayers(suite, context);
      const { drain } = await spentReadBucket(suite);
      requireThat(context, drain.limited !== undefined, 'the read bucket never answered 429 (see RL-429)');
      const { exchange } = drain.limited!;
      expectErrorEnvelope(exchange);
    });

    it(rule('RL-WINDOW', 'a window serves the whole bucket: no 429 while Remaining is above 0, and Remaining falls by one per read'), async (context) => {
      requirePlayers(suite, context);
      const { drain } = await spentReadBucket(suite);
      if (drain.early !== undefined) expectBucketCount(suite, drain.early.timed.exchange, drain.early.count);
      for (const problem of drain.countdown) expectBucketCount(suite, problem.timed.exchange, problem.count);
    });

    it(
      rule('RL-WINDOW', `reads sent together: a fresh read bucket serves no more than its ${READ_LIMIT} in one window, however the requests arrive`),
      async (context) => {
        requirePlayers(suite, context);
        requireThat(context, !authIsScarce(suite), "one client address paces the run: the one player of the checks' own is the read bucket RL-429 spends");
        const identity = suite.target.identities.fresh();
        const player = await ownPlayerOn(suite, identity);
        await expectBurstBounded(suite, context, 'read', () =>
          sendTimed(suite, { method: 'GET', path: '/api/player', token: player.token, identity, expectLimit: true }),
        );
      },
    );

    it(
      rule('RL-WINDOW', `auth requests sent together: a fresh client address's auth bucket serves no more than its ${AUTH_LIMIT} in one window`),
      async (context) => {
        requireThat(context, !authIsScarce(suite), "one client address paces the run: its auth budget is the run's");
        const identity = suite.target.identities.fresh();
        // A verification of an address never registered: counted, and refused whatever the code (any 4xx but a 429 is served).
        await expectBurstBounded(suite, context, 'auth', () =>
          sendTimed(suite, {
            method: 'POST',
            path: '/api/auth/verify-email',
            json: { email: uniqueEmail(suite, 'burst'), otp: '000000' },
            identity,
            expectLimit: true,
          }),
        );
      },
    );
  });
}

/**
 * Sends a fresh bucket's size and a few more requests at once (the target's clock frozen where it can be), and holds
 * every answer past the size that was served in the same window to the 429 it was due.
 */
async function expectBurstBounded(suite: Suite, context: TestContext, category: 'read' | 'auth', send: () => Promise<Timed>): Promise<void> {
  const { limit } = RATE_LIMITS[category];
  await startFreshWindows(suite);
  const together = () => Promise.all(Array.from({ length: limit + BURST_EXTRA }, send));
  const { clock } = suite.target;
  const answers = clock === undefined ? await together() : await withFrozenClock(suite.target, clock, together);
  const served = answers.filter(({ exchange }) => exchange.status !== 429);
  const unit = resetUnitOf(answers);
  requireThat(context, !served.some((each) => windowMoved(unit, served[0]!, each)), 'a window ended while the requests were answered: nothing to count in one');
  for (const extra of served.slice(limit)) {
    expectBucketCount(suite, extra.exchange, {
      rule: 'RL-WINDOW',
      spent: true,
      why: `${limit} of the ${answers.length} ${category} requests sent together were served in this window before it`,
    });
  }
}
