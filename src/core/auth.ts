import { HEADERS, OTP_LENGTH, OTP_LIFETIME_MS, TOKEN_LIFETIME_MS } from '../spec/limits.js';
import { assertChallengePassed } from './bot-check.js';
import { assertRegistrableEmail, normalizeEmail } from './email.js';
import { ApiError } from './errors.js';
import { headerValue, type ServiceRequest } from './http.js';
import type { ResolvedOptions } from './options.js';
import { constantTimeEqual, hashSecret, randomOtp, randomSalt, randomToken } from './secrets.js';
import type { OutboxMessage } from './outbox.js';
import { newPlayer } from './player.js';
import type { PendingCode, Player, Store } from './store.js';

const OTP_PATTERN = new RegExp(`^\\d{${OTP_LENGTH}}$`);
const BEARER_PATTERN = /^Bearer +(\S+) *$/i;

/** Issues a code for the address (replacing any earlier one) and delivers it. */
export async function register(store: Store, options: ResolvedOptions, rawEmail: string, challengeToken: string | undefined) {
  const email = normalizeEmail(rawEmail);
  assertRegistrableEmail(email);
  assertChallengePassed(options.botCheck, challengeToken);
  const now = options.clock.now();
  const code = randomOtp();
  const salt = randomSalt();
  const hash = await hashSecret(salt, code);
  const expiresAt = now + OTP_LIFETIME_MS;
  const earlier = store.pendingCodes.get(email, now);
  if (earlier !== undefined && !earlier.voided) earlier.message.state = 'replaced';
  const message: OutboxMessage = { email, code, issuedAt: now, expiresAt, state: 'pending' };
  store.pendingCodes.set(email, { salt, hash, issuedAt: now, expiresAt, wrongAttempts: 0, voided: false, message }, expiresAt, now);
  store.outbox.add(message);
  options.onOtp({ email, code, issuedAt: now, expiresAt });
  return { success: true, message: `A verification code was sent to ${email}` } as const;
}

/** Checks the code and, when it matches, verifies the player and issues a bearer token. */
export async function verifyEmail(store: Store, options: ResolvedOptions, rawEmail: string, otp: string) {
  const email = normalizeEmail(rawEmail);
  if (!OTP_PATTERN.test(otp)) throw new ApiError(400, `otp must be a ${OTP_LENGTH}-digit string`);
  const now = options.clock.now();
  const pending = store.pendingCodes.get(email, now);
  if (pending === undefined) {
    throw new ApiError(400, 'No valid code for this email: it expired, was used, or was never sent; register again');
  }
  if (pending.voided) {
    const retryAfterSeconds = Math.max(1, Math.ceil((pending.expiresAt - now) / 1000));
    throw new ApiError(429, 'Too many wrong codes for this email; register again to get a new code', {
      [HEADERS.retryAfter]: String(retryAfterSeconds),
    });
  }
  const matches = constantTimeEqual(await hashSecret(pending.salt, otp), pending.hash);
  // While the hash was computed, a concurrent call may have used, voided or replaced this code.
  if (store.pendingCodes.get(email, now) !== pending || pending.voided) {
    throw new ApiError(400, 'This code is no longer valid; register again');
  }
  if (!matches) {
    pending.wrongAttempts++;
    if (options.maxWrongOtpAttempts > 0 && pending.wrongAttempts >= options.maxWrongOtpAttempts) voidCode(pending);
    throw new ApiError(400, 'Wrong verification code');
  }
  store.pendingCodes.delete(email);
  pending.message.state = 'used';
  const player = verifiedPlayer(store, options, email, now);
  const authToken = randomToken();
  const expiresAt = now + TOKEN_LIFETIME_MS;
  store.tokens.set(authToken, { playerId: player.id, issuedAt: now, expiresAt }, expiresAt, now);
  return { success: true, authToken, expiresAt: new Date(expiresAt).toISOString() } as const;
}

/** A void code stays on file (so verify can answer 429) but can no longer be used. */
export function voidCode(pending: PendingCode): void {
  pending.voided = true;
  pending.message.state = 'voided';
}

function verifiedPlayer(store: Store, options: ResolvedOptions, email: string, now: number): Player {
  const existing = store.playerByEmail(email);
  if (existing !== undefined) {
    existing.emailVerified = true;
    return existing;
  }
  const player = newPlayer(email, options, now);
  store.addPlayer(player);
  return player;
}

/** The player behind the request's bearer token, or undefined when it is missing, unknown or expired. */
export function authenticate(store: Store, request: ServiceRequest, now: number): Player | undefined {
  const match = BEARER_PATTERN.exec(headerValue(request, 'authorization') ?? '');
  if (match === null) return undefined;
  // Tokens are UUIDs, issued in lower case; a client may send them in either.
  const token = store.tokens.get(match[1]!.toLowerCase(), now);
  return token === undefined ? undefined : store.players.get(token.playerId);
}
