import { hintFor, type Exchange } from './exchange.js';
import type { Identity } from './identities.js';
import type { SignInContext } from './suite.js';
import { CONTROL_ROUTES } from '../src/spec/control-routes.js';

export interface SignedIn {
  email: string;
  token: string;
  expiresAt: string;
}

let sequence = 0;

/** An address no earlier check used, from the run's template. */
export function uniqueEmail(suite: SignInContext, label = 'player'): string {
  const id = `${label}-${suite.config.seed}-${Date.now().toString(36)}-${sequence++}`;
  return suite.config.emailTemplate.replace('{id}', id);
}

export interface Registration {
  email: string;
  register: Exchange;
  /** The code, read from the run's OTP source. */
  code: string;
}

/** Registers an address and reads the code it was sent. Throws when the run cannot read codes. */
export async function registerForCode(suite: SignInContext, email: string, identity?: Identity): Promise<Registration> {
  if (suite.otp === null) throw new Error('no OTP source: pass --otp-source (control, log:FILE, command:CMD or prompt)');
  await suite.otp.beforeRegister(email);
  const register = await suite.target.send({ method: 'POST', path: '/api/auth/register', json: { email }, ...(identity ? { identity } : {}) });
  if (register.status !== 200)
    throw new Error([`registering ${email} answered ${register.status}: ${register.text.slice(0, 300)}`].concat(hintFor(register) ?? []).join('\n'));
  return { email, register, code: await suite.otp.codeFor(email) };
}

/** A verified player with a bearer token: made by the control API where the target has one, else signed in for real. */
export async function signIn(suite: SignInContext, identity?: Identity): Promise<SignedIn> {
  const email = uniqueEmail(suite);
  if (suite.config.capabilities?.players === true) {
    const { method, pattern } = CONTROL_ROUTES.createPlayer;
    const created = await suite.target.send({ method, path: pattern, json: { email } });
    const body = created.body as { authToken?: string; expiresAt?: string } | undefined;
    if (created.status !== 200 || body?.authToken === undefined) throw new Error(`${method} ${pattern} answered ${created.status}: ${created.text}`);
    return { email, token: body.authToken, expiresAt: body.expiresAt ?? '' };
  }
  const { code } = await registerForCode(suite, email, identity);
  return (await verifyForToken(suite, email, code, identity)).player;
}

/** The player a verify-email response for `email` signed in; throws with the answer when it signed none in. */
export function signedInBy(email: string, verify: Exchange): SignedIn {
  const body = verify.body as { authToken?: unknown; expiresAt?: unknown } | undefined;
  if (verify.status !== 200 || typeof body?.authToken !== 'string')
    throw new Error(`verifying ${email} answered ${verify.status}: ${verify.text.slice(0, 300)}`);
  return { email, token: body.authToken, expiresAt: String(body.expiresAt) };
}

/** Verifies a code that must be right, and the player it signs in; throws with the answer otherwise. */
export async function verifyForToken(suite: SignInContext, email: string, code: string, identity?: Identity): Promise<{ verify: Exchange; player: SignedIn }> {
  const verify = await suite.target.send({ method: 'POST', path: '/api/auth/verify-email', json: { email, otp: code }, ...(identity ? { identity } : {}) });
  return { verify, player: signedInBy(email, verify) };
}
