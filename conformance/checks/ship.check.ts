import { describe, it } from 'vitest';
import { expectThat, observe } from '../assertions.js';
import { unverifiedToken } from '../accounts.js';
import { errorMessage, expectClientError } from '../envelope.js';
import { rule } from '../rules.js';
import { suite } from '../suite.js';

describe('ship creation', () => {
  it(rule('SHIP-VERIFIED', 'POST /api/player/ship with an unverified player\'s token answers a 4xx error envelope whose message speaks of email verification'), async (context) => {
    const unverified = await unverifiedToken(suite());
    if ('reason' in unverified) return context.skip(unverified.reason);
    // The creation payload is not shown; a name is the likeliest field.
    const exchange = await suite().target.send({ method: 'POST', path: '/api/player/ship', token: unverified.token, json: { name: 'Conformance' }, identity: suite().target.identities.fresh() });
    expectClientError(exchange, 'ship creation is allowed only for a player whose email is verified');
    const message = errorMessage(exchange);
    expectThat(exchange, /verif/i.test(message) && /e-?mail/i.test(message), 'an error message saying that email verification is required');
    await observe(context, `an unverified player's ship creation answered ${exchange.status} ${JSON.stringify(message)}`);
  });
});
