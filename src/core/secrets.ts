import { OTP_LENGTH } from '../spec/limits.js';

/** Random codes, tokens and hashes from the platform's CSPRNG (Web Crypto: Node and browsers alike). */

const OTP_RANGE = 10 ** OTP_LENGTH;
// Largest multiple of OTP_RANGE below 2^32: draws at or above it are rejected, so every code is equally likely.
const UNBIASED_CEILING = Math.floor(2 ** 32 / OTP_RANGE) * OTP_RANGE;

export function randomOtp(): string {
  const draw = new Uint32Array(1);
  do crypto.getRandomValues(draw);
  while (draw[0]! >= UNBIASED_CEILING);
  return String(draw[0]! % OTP_RANGE).padStart(OTP_LENGTH, '0');
}

export function randomToken(): string {
  return crypto.randomUUID();
}

export function randomSalt(): Uint8Array<ArrayBuffer> {
  return crypto.getRandomValues(new Uint8Array(16));
}

const encoder = new TextEncoder();

export async function hashSecret(salt: Uint8Array<ArrayBuffer>, secret: string): Promise<Uint8Array> {
  const secretBytes = encoder.encode(secret);
  const input = new Uint8Array(salt.byteLength + secretBytes.byteLength);
  input.set(salt);
  input.set(secretBytes, salt.byteLength);
  return new Uint8Array(await crypto.subtle.digest('SHA-256', input));
}

/** Compares every byte whatever the first difference, so timing does not reveal how much matched. */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  let difference = 0;
  for (let i = 0; i < a.byteLength; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}
