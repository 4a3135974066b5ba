import { describe, it } from 'vitest';
import { expectThat, observe } from './assertions.js';
import { cannotSignIn, unverifiedToken, verifiedPlayer } from '../fixtures/accounts.js';
import { errorMessage } from '../rules/envelope.js';
import { expectClientError } from './expect-envelope.js';
import { createShip, payloadRefusal, refusedPayload } from '../fixtures/gameplay.js';
import { speaksOfVerification } from '../rules/gameplay.js';
import { expectRule, sentBySuite } from './expect-rule.js';
import { rule } from '../rules/index.js';
import type { Suite } from '../fixtures/suite.js';

export function shipChecks(suite: Suite): void {
  describe('ship creation', () => {
    it(
      rule('SHIP-VERIFIED', "POST /api/player/ship with an unverified player's token answers a 4xx error envelope whose message speaks of email verification"),
      async (context) => {
        const unverified = await unverifiedToken(suite);
        if ('reason' in unverified) return context.skip(unverified.reason);
        const exchange = await createShip(suite, unverified.token);
        // The payload is not shown: a target that validates it first answers 400 for a payload it does not take.
        if (refusedPayload(exchange)) return context.skip(payloadRefusal(exchange));
        expectClientError(exchange, 'ship creation is allowed only for a player whose email is verified');
        expectThat(exchange, speaksOfVerification(exchange), 'an error message saying that email verification is required');
        await observe(context, `an unverified player's ship creation answered ${exchange.status} ${JSON.stringify(errorMessage(exchange))}`);
      },
    );

    it(
      rule(
        'SHIP-VERIFIED',
        'a player who verified the emailed code is not refused ship creation for want of verification (Code pending → Verified with active token)',
      ),
      async (context) => {
        const reason = cannotSignIn(suite);
        if (reason !== undefined) return context.skip(reason);
        const { token, expiresAt } = await verifiedPlayer(suite);
        const exchange = await createShip(suite, token);
        // The payload and the ship's rules are not shown: any answer but a refusal for verification will do.
        expectRule('SHIP-VERIFIED', exchange, { ...sentBySuite(suite, exchange), tokenExpiresAt: Date.parse(expiresAt) }, 'a ship creation');
      },
    );
  });
}
