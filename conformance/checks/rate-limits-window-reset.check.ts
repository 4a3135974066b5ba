import { describe, it } from 'vitest';
import { RATE_LIMITS } from '../../src/spec/limits.js';
import { expectThat, requireThat } from './assertions.js';
import { notice, sleep } from '../target/pacing.js';
import { rule } from '../rules/index.js';
import type { Suite } from '../fixtures/suite.js';
import { retryAfterReading, spentReadBucket, WHOLE_WINDOW } from './read-bucket.js';
import { remainingOf, requirePlayers } from './rate-limits-support.js';

// "Reads (authenticated GET): 60 requests per player per minute." The bucket rate-limits-window.check.ts spent,
// watched again once Retry-After has passed. Its file runs some checks after the drain, so that in real time
// the wait for the window mostly passes while they run (where one address paces the run, while they wait for
// auth windows anyway).

const READ_LIMIT = RATE_LIMITS.read.limit;

export function rateLimitsWindowResetChecks(suite: Suite): void {
  describe('rate-limit windows, after the wait', () => {
    it(rule('RL-WINDOW', 'once Retry-After has passed, the spent read bucket is fresh: 200 with Remaining = Limit − 1'), async (context) => {
      requirePlayers(suite, context);
      const { drain, read } = await spentReadBucket(suite);
      const { limited } = drain;
      requireThat(context, limited !== undefined, 'no spent bucket to watch: the read bucket never answered 429 (see RL-429)');
      const reading = retryAfterReading(drain.responses, limited!) ?? WHOLE_WINDOW;
      const { clock } = suite.target;
      if (clock !== undefined) {
        await clock.advance(reading.waitMs + 1_000);
      } else {
        const { maxWaitSeconds } = suite.config;
        requireThat(
          context,
          reading.waitMs <= maxWaitSeconds * 1000,
          `the window ends in ${Math.ceil(reading.waitMs / 1000)} s, more than --max-wait ${maxWaitSeconds} s`,
        );
        const waitMs = reading.waitMs + 1_000 - (Date.now() - limited!.exchange.receivedAt);
        if (waitMs > 0) {
          notice(`RL-WINDOW: waiting ${Math.ceil(waitMs / 1000)} s (Retry-After) for a spent read bucket to start a new window`);
          await sleep(waitMs, context.signal);
        }
      }
      const { exchange } = await read();
      expectThat(exchange, exchange.status === 200, `status 200: Retry-After (${reading.waitMs / 1000} s) has passed`);
      expectThat(exchange, remainingOf(exchange) === READ_LIMIT - 1, `X-RateLimit-Remaining ${READ_LIMIT - 1}: a fresh bucket in a new window`);
    });
  });
}
