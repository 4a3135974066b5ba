import type { Exchange } from './exchange.js';
import type { Identity } from './identities.js';
import { registerForCode, uniqueEmail, type Registration } from './players.js';
import { fixture } from './fixture.js';

export interface BoundPair {
  first: Registration;
  second: Registration;
  identity: Identity;
  /** The second address verified with the first one's code. */
  crossed: Exchange;
}

/**
 * Two registered addresses, and the second verified with the first one's code: VERIFY-BOUND's. Where auth
 * requests are scarce, VERIFY-WRONG goes on with the second address and the first signs in the run's second
 * player (accounts.ts): the crossed code leaves the first one's pending.
 */
export const boundPair = fixture(async (suite): Promise<BoundPair> => {
  const identity = suite.target.identities.fresh();
  const first = await registerForCode(suite, uniqueEmail(suite, 'bound-a'), identity);
  const second = await registerForCode(suite, uniqueEmail(suite, 'bound-b'), identity);
  const crossed = await suite.target.send({
    method: 'POST',
    path: '/api/auth/verify-email',
    json: { email: second.email, otp: first.code },
    identity,
    acceptLimit: true,
  });
  return { first, second, identity, crossed };
});
