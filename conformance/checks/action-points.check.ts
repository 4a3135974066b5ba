import { describe, it } from 'vitest';
import { HEADERS } from '../../src/spec/limits.js';
import { expectThat, observe } from '../assertions.js';
import { cannotSignIn } from '../accounts.js';
import { isSuccess } from '../envelope.js';
import { header, integerHeader, type Exchange } from '../exchange.js';
import { signIn } from '../players.js';
import { rule } from '../rules.js';
import { suite } from '../suite.js';

/** A gameplay POST: ship creation, the one the spec names (its payload is not shown; a name is the likeliest). */
function createShip(token: string): Promise<Exchange> {
  return suite().target.send({ method: 'POST', path: '/api/player/ship', token, json: { name: 'Conformance' }, identity: suite().target.identities.fresh() });
}

/** NextRefill must be an integer whenever Remaining is 0. */
function expectRefillWhenEmpty(exchange: Exchange): void {
  if (integerHeader(exchange, HEADERS.actionPointsRemaining) !== 0) return;
  expectThat(exchange, integerHeader(exchange, HEADERS.actionPointsNextRefill) !== undefined, `${HEADERS.actionPointsNextRefill}: an integer, since ${HEADERS.actionPointsRemaining} is 0`);
}

describe('action points', () => {
  it(rule('AP-HEADERS', "a new player's POST /api/player/ship carries X-ActionPoints-Remaining (integer), and X-ActionPoints-NextRefill (integer) when it is 0"), async (context) => {
    const reason = cannotSignIn(suite());
    if (reason !== undefined) return context.skip(reason);
    const { token } = await signIn(suite(), suite().target.identities.fresh());
    const exchange = await createShip(token);
    const remaining = header(exchange, HEADERS.actionPointsRemaining);
    if (isSuccess(exchange)) {
      expectThat(exchange, integerHeader(exchange, HEADERS.actionPointsRemaining) !== undefined, `${HEADERS.actionPointsRemaining}: an integer on a gameplay response`);
    } else if (remaining === undefined) {
      await observe(context, `a ${exchange.status} answer to ship creation carries no ${HEADERS.actionPointsRemaining}`);
    } else {
      expectThat(exchange, integerHeader(exchange, HEADERS.actionPointsRemaining) !== undefined, `${HEADERS.actionPointsRemaining}: an integer when sent`);
    }
    expectRefillWhenEmpty(exchange);
    await observe(context, `ship creation answered ${exchange.status} with ${HEADERS.actionPointsRemaining} ${remaining ?? '(none)'}`);
  });

  it(rule('AP-HEADERS', 'with no points left (set through the control API), a gameplay POST carries X-ActionPoints-Remaining 0 and X-ActionPoints-NextRefill (integer)'), async (context) => {
    if (suite().config.capabilities?.players !== true) return context.skip("the target has no control API to set a player's action points (capabilities.players)");
    const { email, token } = await signIn(suite());
    const emptied = await suite().target.send({ method: 'PUT', path: `/__mock/players/${encodeURIComponent(email)}/action-points`, json: { points: 0 } });
    if (emptied.status !== 200) throw new Error(`PUT /__mock/players/:email/action-points answered ${emptied.status}: ${emptied.text.slice(0, 300)}`);
    const exchange = await createShip(token);
    expectThat(exchange, integerHeader(exchange, HEADERS.actionPointsRemaining) === 0, `${HEADERS.actionPointsRemaining}: 0`);
    expectRefillWhenEmpty(exchange);
    await observe(context, `with no points, ship creation answered ${exchange.status} with ${HEADERS.actionPointsNextRefill} ${header(exchange, HEADERS.actionPointsNextRefill)} (unit not shown)`);
  });
});
