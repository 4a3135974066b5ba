import { header, type Exchange } from './exchange.js';
import type { Identity } from './identities.js';
import type { Suite } from './suite.js';
import { registerForCode, signedInBy, uniqueEmail, type Registration, type SignedIn } from './players.js';
import { fixture } from './fixture.js';
import { CONTROL_ROUTES } from '../src/spec/control-routes.js';

/** When the server issued a token: bounds in ms, and what they were read from. */
export interface IssueTime {
  from: number;
  to: number;
  source: string;
}

export interface Verification {
  registration: Registration;
  identity: Identity;
  /** The verify-email response to the registration's code. */
  exchange: Exchange;
  issued: IssueTime;
}

/**
 * One registration verified with its code, shared by VERIFY-OK, OTP-LENGTH, TOKEN-LIFETIME and VERIFY-REUSED;
 * where auth requests are scarce, also by REG-OK and as the run's shared player (see accounts.ts).
 */
export const firstVerification = fixture(async (suite): Promise<Verification> => {
  const { target } = suite;
  const identity = target.identities.fresh();
  const registration = await registerForCode(suite, uniqueEmail(suite, 'verify'), identity);
  const before = await target.clock?.now();
  const exchange = await target.send({ method: 'POST', path: '/api/auth/verify-email', json: { email: registration.email, otp: registration.code }, identity });
  const after = await target.clock?.now();
  let issued: IssueTime;
  if (before !== undefined && after !== undefined) {
    issued = { from: before, to: after, source: `the target's clock (${CONTROL_ROUTES.clock.method} ${CONTROL_ROUTES.clock.pattern})` };
  } else {
    const date = Date.parse(header(exchange, 'date') ?? '');
    issued = Number.isNaN(date)
      ? { from: exchange.receivedAt, to: exchange.receivedAt, source: "this machine's clock (the response has no Date header)" }
      : { from: date, to: date + 999, source: "the response's Date header" };
  }
  return { registration, identity, exchange, issued };
});

/** The player the first verification signed in, with its register and verify responses; throws when it gave no token. */
export async function firstSignIn(suite: Suite): Promise<{ register: Exchange; verify: Exchange; player: SignedIn }> {
  const { registration, exchange } = await firstVerification(suite);
  return { register: registration.register, verify: exchange, player: signedInBy(registration.email, exchange) };
}
