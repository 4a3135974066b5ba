import { describe, it } from 'vitest';
import { CONTROL_ROUTES, controlPath } from '../../src/spec/control-routes.js';
import { HEADERS } from '../../src/spec/limits.js';
import { cannotSignIn, ownPlayer } from '../fixtures/accounts.js';
import { observe } from './assertions.js';
import { errorMessage, isSuccess } from '../rules/envelope.js';
import { expectRule, sentByCheck } from './expect-rule.js';
import { header, type Exchange } from '../common/exchange.js';
import { createShip, payloadRefusal, refusedPayload, SHIP_PATH } from '../fixtures/gameplay.js';
import { signIn } from '../fixtures/players.js';
import { rule } from '../rules/index.js';
import type { Suite } from '../fixtures/suite.js';

/** AP-HEADERS as its rule judges every gameplay answer: Remaining an integer, NextRefill one when it is 0, success: true on a 2xx. */
function expectActionPointHeaders(exchange: Exchange): void {
  expectRule('AP-HEADERS', exchange, sentByCheck(SHIP_PATH, exchange), `${HEADERS.actionPointsRemaining} on a gameplay answer`);
}

export function actionPointsChecks(suite: Suite): void {
  describe('action points', () => {
    it(
      rule(
        'AP-HEADERS',
        "a new verified player's POST /api/player/ship succeeds with success: true and X-ActionPoints-Remaining (integer), and X-ActionPoints-NextRefill (integer) when it is 0",
      ),
      async (context) => {
        const reason = cannotSignIn(suite);
        if (reason !== undefined) return context.skip(reason);
        const { token } = await ownPlayer(suite, suite.target.identities.fresh());
        const exchange = await createShip(suite, token);
        if (refusedPayload(exchange)) return context.skip(payloadRefusal(exchange));
        if (!isSuccess(exchange)) {
          return context.skip(
            `ship creation by a new verified player answered ${exchange.status} ${JSON.stringify(errorMessage(exchange))}: no successful gameplay response to judge`,
          );
        }
        expectActionPointHeaders(exchange);
        await observe(
          context,
          `ship creation answered ${exchange.status} with ${HEADERS.actionPointsRemaining} ${header(exchange, HEADERS.actionPointsRemaining)}`,
        );
      },
    );

    it(
      rule(
        'AP-HEADERS',
        'with no points left (set through the control API), a gameplay POST carries X-ActionPoints-Remaining 0 and X-ActionPoints-NextRefill (integer)',
      ),
      async (context) => {
        if (suite.config.capabilities?.players !== true)
          return context.skip("the target has no control API to set a player's action points (capabilities.players)");
        const { email, token } = await signIn(suite);
        const { method, pattern } = CONTROL_ROUTES.setActionPoints;
        const emptied = await suite.target.send({ method, path: controlPath('setActionPoints', { id: email }), json: { points: 0 } });
        if (emptied.status !== 200) throw new Error(`${method} ${pattern} answered ${emptied.status}: ${emptied.text.slice(0, 300)}`);
        const exchange = await createShip(suite, token);
        if (refusedPayload(exchange)) return context.skip(payloadRefusal(exchange));
        expectRule(
          'AP-HEADERS',
          exchange,
          { ...sentByCheck(SHIP_PATH, exchange), actionPointsBefore: 0 },
          `${HEADERS.actionPointsRemaining} with no points left`,
        );
        await observe(
          context,
          `with no points, ship creation answered ${exchange.status} with ${HEADERS.actionPointsNextRefill} ${header(exchange, HEADERS.actionPointsNextRefill)} (unit not shown)`,
        );
      },
    );
  });
}
