import { randomUUID } from 'node:crypto';
import { HEADERS, RATE_LIMITS, TOKEN_LIFETIME_MS } from '../../src/spec/limits.js';
import type { MutationContext, ProxiedRequest, ProxiedResponse } from './mutating-proxy.js';

/** What mutations and variations of the mutating proxy read and rewrite. */

export const REGISTER = '/api/auth/register';
export const VERIFY = '/api/auth/verify-email';
export const SHIP = '/api/player/ship';
export const RATE_LIMIT_HEADERS = [HEADERS.rateLimitLimit, HEADERS.rateLimitRemaining, HEADERS.rateLimitReset] as const;

export type Body = Record<string, unknown>;

export function objectBody(response: ProxiedResponse): Body | undefined {
  const { body } = response;
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Body) : undefined;
}

export function requestBody(request: ProxiedRequest): Body | undefined {
  const { json } = request;
  return typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Body) : undefined;
}

export const isPost = (request: ProxiedRequest, path: string) => request.method === 'POST' && request.path === path;
export const isSuccess = (response: ProxiedResponse) => response.status >= 200 && response.status < 300;
/** A 4xx that is no rate-limit answer. */
export const isRefusal = (response: ProxiedResponse) => response.status >= 400 && response.status < 500 && response.status !== 429;

/** Replaces the whole answer: status, body, and the headers named (the others are kept). */
export function answer(response: ProxiedResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.status = status;
  response.body = body;
  delete response.text;
  Object.assign(response.headers, headers);
}

/** A verify-email success with a token the upstream never issued. */
export function forgedToken(ctx: MutationContext): Body {
  return { success: true, authToken: randomUUID(), expiresAt: new Date(ctx.now() + TOKEN_LIFETIME_MS).toISOString() };
}

export const registered: Body = { success: true, message: 'A verification code was sent to your email' };

/** Retry-After in whole seconds until the epoch-seconds Reset of `response`, at least 1. */
export function secondsToReset(ctx: MutationContext, response: ProxiedResponse): number {
  const reset = Number(response.headers[HEADERS.rateLimitReset]);
  return Number.isFinite(reset) ? Math.max(1, reset - Math.floor(ctx.now() / 1000)) : 60;
}

/** The bucket a request counts in at the upstream: category and key (the player's token, or the client IP). */
export function bucketKey(request: ProxiedRequest): string | undefined {
  if (request.category === undefined) return undefined;
  const byPlayer = RATE_LIMITS[request.category].scope === 'player' && request.token !== undefined;
  return `${request.category}:${byPlayer ? `token ${request.token}` : `ip ${request.clientIp}`}`;
}

export function rewriteHeader(response: ProxiedResponse, name: string, rewrite: (value: string) => string): void {
  const value = response.headers[name];
  if (value !== undefined) response.headers[name] = rewrite(value);
}
