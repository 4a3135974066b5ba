import { BEARER_AUTHORIZATION } from '../spec/bearer.js';
import { HEADERS, OTP_LENGTH, OTP_LIFETIME_MS, TOKEN_LIFETIME_MS } from '../spec/limits.js';
import { assertChallengePassed } from './bot-check.js';
import { assertRegistrableEmail, normalizeEmail } from './email.js';
import { ApiError } from './errors.js';
import { headerValue, type ServiceRequest } from './http.js';
import type { RequestContext } from './request-context.js';
import { isoInstant, refusalStatus, retryAfterHeader } from './variant-effects.js';
import { constantTimeEqual, hashSecret, randomOtp, randomSalt, randomToken } from './secrets.js';
import type { OutboxMessage } from './outbox.js';
import { newPlayer } from './new-player.js';
import type { PendingCode, Player, Store } from './store.js';

const OTP_PATTERN = new RegExp(`^\\d{${OTP_LENGTH}}$`);

/** Issues a code for the address (replacing any earlier one) and delivers it. */
export async function register(context: RequestContext, rawEmail: string, challengeToken: string | undefined) {
  const { store, config, variants, now } = context;
  const email = normalizeEmail(rawEmail);
  assertRegistrableEmail(email, refusalStatus(variants, 'disposable'));
  assertChallengePassed(config.botCheck, challengeToken);
  const code = randomOtp();
  const salt = randomSalt();
  const hash = await hashSecret(salt, code);
  const expiresAt = now + OTP_LIFETIME_MS;
  const earlier = store.pendingCodes.get(email, now);
  if (earlier !== undefined && !earlier.voided) earlier.message.state = 'replaced';
  const message: OutboxMessage = { email, code, issuedAt: now, expiresAt, state: 'pending' };
  store.pendingCodes.set(email, { salt, hash, issuedAt: now, expiresAt, wrongAttempts: 0, voided: false, message }, now);
  store.outbox.add(message);
  const registered = store.playerByEmail(email);
  if (registered !== undefined && variants.has('reregistration-revokes-token')) store.revokeTokens(registered);
  config.onOtp({ email, code, issuedAt: now, expiresAt });
  return { success: true, message: `A verification code was sent to ${email}` } as const;
}

/** Checks the code and, when it matches, verifies the player and issues a bearer token. */
export async function verifyEmail(context: RequestContext, rawEmail: string, otp: string) {
  const { store, config, variants, now } = context;
  const email = normalizeEmail(rawEmail);
  if (!OTP_PATTERN.test(otp)) throw new ApiError(400, `otp must be a ${OTP_LENGTH}-digit string`);
  const pending = store.pendingCodes.get(email, now);
  const refused = refusalStatus(variants, 'wrong-code');
  if (pending === undefined) {
    throw new ApiError(refused, 'No valid code for this email: it expired, was used, or was never sent; register again');
  }
  if (pending.voided) {
    throw new ApiError(429, 'Too many wrong codes for this email; register again to get a new code', {
      [HEADERS.retryAfter]: retryAfterHeader(variants, pending.expiresAt, now),
    });
  }
  const matches = constantTimeEqual(await hashSecret(pending.salt, otp), pending.hash);
  // While the hash was computed, a concurrent call may have used, voided or replaced this code.
  if (store.pendingCodes.get(email, now) !== pending || pending.voided) {
    throw new ApiError(refused, 'This code is no longer valid; register again');
  }
  if (!matches) {
    pending.wrongAttempts++;
    const limit = variants.has('unlimited-wrong-codes') ? 0 : config.maxWrongOtpAttempts;
    if (limit > 0 && pending.wrongAttempts >= limit) voidCode(pending);
    throw new ApiError(refused, 'Wrong verification code');
  }
  store.pendingCodes.delete(email);
  pending.message.state = 'used';
  const player = verifiedPlayer(store, config, email, now);
  const authToken = randomToken();
  const expiresAt = now + TOKEN_LIFETIME_MS;
  store.issueToken(authToken, player.id, now, expiresAt);
  return { success: true, authToken, expiresAt: isoInstant(variants, expiresAt) } as const;
}

/** A void code stays on file (so verify can answer 429) but can no longer be used. */
export function voidCode(pending: PendingCode): void {
  pending.voided = true;
  pending.message.state = 'voided';
}

function verifiedPlayer(store: Store, config: RequestContext['config'], email: string, now: number): Player {
  const existing = store.playerByEmail(email);
  if (existing !== undefined) {
    existing.emailVerified = true;
    return existing;
  }
  const player = newPlayer(email, config.actionPoints, now, { template: config.resources.player, store });
  store.addPlayer(player);
  return player;
}

/** The token a request's Authorization header carries, if any. */
export function bearerToken(request: ServiceRequest): string | undefined {
  // Tokens are UUIDs, issued in lower case; a client may send them in either.
  return BEARER_AUTHORIZATION.exec(headerValue(request, 'authorization') ?? '')?.[1]?.toLowerCase();
}

/** The player behind the request's bearer token, or undefined when it is missing, unknown or expired. */
export function authenticate(store: Store, request: ServiceRequest, now: number): Player | undefined {
  const sent = bearerToken(request);
  if (sent === undefined) return undefined;
  const token = store.tokens.get(sent, now);
  if (token === undefined) return undefined;
  const player = store.players.get(token.playerId);
  return player === undefined || token.serial < player.firstValidTokenSerial ? undefined : player;
}
