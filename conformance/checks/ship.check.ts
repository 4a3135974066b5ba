import { describe, it } from 'vitest';
import { observe } from './assertions.js';
import { cannotSignIn, unverifiedToken, verifiedPlayer } from '../fixtures/accounts.js';
import { errorMessage } from '../rules/envelope.js';
import { createShip, createShipCall, payloadRefusal, refusedPayload } from '../fixtures/gameplay.js';
import { expectRule, sentBySuite } from './expect-rule.js';
import { rule } from '../rules/index.js';
import type { Suite } from '../fixtures/suite.js';

export function shipChecks(suite: Suite): void {
  describe('ship creation', () => {
    it(
      rule(
        'SHIP-VERIFIED',
        "POST /api/player/ship with an unverified player's token answers a 4xx error envelope whose message speaks of email verification, from the game origin too",
      ),
      async (context) => {
        const unverified = await unverifiedToken(suite);
        if ('reason' in unverified) return context.skip(unverified.reason);
        const exchange = await createShip(suite, unverified.token);
        // The payload is not shown: a target that validates it first answers 400 for a payload it does not take.
        if (refusedPayload(exchange)) return context.skip(payloadRefusal(exchange));
        expectRule(
          'SHIP-VERIFIED',
          exchange,
          { ...sentBySuite(suite, exchange), unverifiedPlayer: true },
          "a judgement of an unverified player's ship creation",
        );
        await observe(context, `an unverified player's ship creation answered ${exchange.status} ${JSON.stringify(errorMessage(exchange))}`);
        const { gameOrigin } = suite.config;
        if (gameOrigin === null) return observe(context, 'the game origin was not tried: pass --game-origin');
        // The gate is the rule's for every caller: a game client's request is exempt from buckets, not from verification.
        const fromGame = await suite.target.send(createShipCall(suite, unverified.token, suite.target.identities.fresh(), { origin: gameOrigin }));
        const fromGameKnown = { ...sentBySuite(suite, fromGame), external: false, unverifiedPlayer: true };
        expectRule('SHIP-VERIFIED', fromGame, fromGameKnown, "a judgement of an unverified player's ship creation from the game origin");
        if (fromGame.status !== exchange.status)
          await observe(context, `from the game origin it answered ${fromGame.status} ${JSON.stringify(errorMessage(fromGame))}`);
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
