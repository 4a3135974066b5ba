import { isAuthPaced } from './auth-plan.js';
import { firstSignIn } from './first-verification.js';
import type { Identity } from './identities.js';
import { boundPair } from './bound-pair.js';
import { registerForCode, signIn, uniqueEmail, verifyForToken, type SignedIn } from './players.js';
import type { Suite } from './suite.js';
import { CONTROL_ROUTES, controlPath } from '../src/spec/control-routes.js';

/** Why a check that needs a signed-in player cannot run, or undefined when it can. */
export function cannotSignIn(suite: Suite): string | undefined {
  if (suite.config.capabilities?.players === true || suite.otp !== null) return undefined;
  return 'no OTP source: the target has no control API to read codes from; pass --otp-source (log:FILE, command:CMD or prompt)';
}

/**
 * Whether auth requests are what the run is short of: real sign-ins in real time from one client address, whose
 * auth budget (5 a minute) paces the whole run. Checks then share registrations and players wherever what
 * each asserts stays its own.
 */
export function authIsScarce(suite: Suite): boolean {
  return isAuthPaced(suite.config);
}

/**
 * A verified player for checks that only read or send a few gameplay requests. With the control API each
 * call makes a new one (free, and never expired by another check's clock move); in real time the run
 * shares one, since each sign-in costs two requests of the auth budget (5 a minute): where that budget is
 * scarce, the one VERIFY-OK judges.
 */
export function verifiedPlayer(suite: Suite): Promise<SignedIn> {
  if (suite.config.capabilities?.players === true || suite.target.clock !== undefined) return signIn(suite, suite.target.identities.fresh());
  return suite.fixtures.get(verifiedPlayer, () =>
    authIsScarce(suite) ? firstSignIn(suite).then(({ player }) => player) : signIn(suite, suite.target.identities.fresh()),
  );
}

/**
 * A player of the check's own, whose read and gameplay buckets no other check touches; where auth requests are
 * scarce, one second player serves every such check (each judges its buckets from what it finds, and the run
 * orders the files so that AP-HEADERS makes this player's first ship).
 */
export function ownPlayer(suite: Suite, identity: Identity): Promise<SignedIn> {
  if (!authIsScarce(suite)) return signIn(suite, identity);
  // VERIFY-BOUND's first address is registered, and its code still pending: one verify signs it in.
  return suite.fixtures.get(ownPlayer, async () => {
    const { first, identity: registeredFrom } = await boundPair(suite);
    return (await verifyForToken(suite, first.email, first.code, registeredFrom)).player;
  });
}

/**
 * Another token of the signed-in `player`: issued again by the control API where the target has one (it keeps
 * earlier tokens), else by signing in again, register and verify. Where auth requests are scarce, undefined.
 */
export async function secondToken(suite: Suite, player: SignedIn, identity: Identity): Promise<string | undefined> {
  if (suite.config.capabilities?.players === true) {
    const { method, pattern } = CONTROL_ROUTES.createPlayer;
    const issued = await suite.target.send({ method, path: pattern, json: { email: player.email } });
    const token = (issued.body as { authToken?: unknown } | undefined)?.authToken;
    if (issued.status !== 200 || typeof token !== 'string') throw new Error(`${method} ${pattern} answered ${issued.status}: ${issued.text}`);
    return token;
  }
  if (authIsScarce(suite)) return undefined;
  const { code } = await registerForCode(suite, player.email, identity);
  return (await verifyForToken(suite, player.email, code, identity)).player.token;
}

/** A token of a player whose email is not verified: from --unverified-token, or the control API's scenario. */
export async function unverifiedToken(suite: Suite): Promise<{ token: string } | { reason: string }> {
  if (suite.config.unverifiedToken !== null) return { token: suite.config.unverifiedToken };
  if (!(suite.config.capabilities?.scenarios ?? []).includes('unverified-player')) {
    return { reason: 'no token of an unverified player: pass --unverified-token, or check a target whose control API offers the unverified-player scenario' };
  }
  const email = uniqueEmail(suite, 'unverified');
  const path = controlPath('applyScenario', { name: 'unverified-player' });
  const created = await suite.target.send({ method: CONTROL_ROUTES.applyScenario.method, path, json: { email } });
  const token = (created.body as { authToken?: unknown } | undefined)?.authToken;
  if (created.status !== 200 || typeof token !== 'string')
    throw new Error(`${CONTROL_ROUTES.applyScenario.method} ${path} answered ${created.status}: ${created.text.slice(0, 300)}`);
  return { token };
}
