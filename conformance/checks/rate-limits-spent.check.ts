import { describe, it } from 'vitest';
import { RATE_LIMITS } from '../../src/spec/limits.js';
import { createShipCall } from '../fixtures/gameplay.js';
import { describeAddressing } from '../target/identities.js';
import { rule } from '../rules/index.js';
import type { Suite } from '../fixtures/suite.js';
import { drainBucket, expectSpentBucket, ownPlayerOn, requirePlayers, sendTimed, startFreshWindows } from './rate-limits-support.js';

// "When a limit is exceeded the response is 429 with Retry-After (integer, unit unspecified)."
// "Public reads: 60 requests per IP per minute; Gameplay (POST): 60 requests per player per minute; external callers."
// The read and auth buckets are spent by the window and scope checks; these spend the other two.

export function rateLimitsSpentChecks(suite: Suite): void {
  describe('rate-limit buckets spent', () => {
    it(rule('RL-429', `public: once a client has sent ${RATE_LIMITS.public.limit} GET /health in a minute (Remaining 0), the next is a 429`), async () => {
      const { config, target } = suite;
      const identity = target.identities.fresh();
      await startFreshWindows(suite);
      const drain = await drainBucket('public', () => sendTimed(suite, { method: 'GET', path: '/health', identity, expectLimit: true }));
      const addressing = describeAddressing(config.sourceIps, config.clientIpHeader);
      expectSpentBucket(suite, drain, `GET /health from ${identity.label} (${RATE_LIMITS.public.limit} a minute per IP; ${addressing})`);
    });

    it(
      rule('RL-429', `gameplay: once a player has sent ${RATE_LIMITS.gameplay.limit} POST /api/player/ship in a minute (Remaining 0), the next is a 429`),
      async (context) => {
        requirePlayers(suite, context);
        const identity = suite.target.identities.fresh();
        const player = await ownPlayerOn(suite, identity);
        await startFreshWindows(suite);
        // Whether the target takes the payload or refuses it (one ship a player, a payload it does not know), each is a gameplay request.
        const drain = await drainBucket('gameplay', () => sendTimed(suite, createShipCall(suite, player.token, identity, { expectLimit: true })));
        expectSpentBucket(suite, drain, `gameplay POSTs of one player (${RATE_LIMITS.gameplay.limit} a minute)`);
      },
    );
  });
}
