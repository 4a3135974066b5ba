import type { RateLimitCategory } from './limits.js';

export type HttpMethod = 'GET' | 'POST';

/** none: anyone; bearer: a valid token; verified: a valid token of a player whose email is verified. */
export type RouteAuth = 'none' | 'bearer' | 'verified';

export interface RouteSpec {
  readonly id: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly category: RateLimitCategory;
  readonly auth: RouteAuth;
}

/** The token a route beyond the spec's table needs, by its category: none on a public route, a bearer token on any other. */
export function categoryAuth(category: RateLimitCategory): 'none' | 'bearer' {
  return category === 'public' ? 'none' : 'bearer';
}

/** Spec, Endpoints table and its rule 2 (rate-limit categories). */
export const ROUTES = [
  { id: 'health', method: 'GET', path: '/health', category: 'public', auth: 'none' },
  { id: 'register', method: 'POST', path: '/api/auth/register', category: 'auth', auth: 'none' },
  { id: 'verifyEmail', method: 'POST', path: '/api/auth/verify-email', category: 'auth', auth: 'none' },
  { id: 'getPlayer', method: 'GET', path: '/api/player', category: 'read', auth: 'bearer' },
  { id: 'createShip', method: 'POST', path: '/api/player/ship', category: 'gameplay', auth: 'verified' },
] as const satisfies readonly RouteSpec[];

export type RouteId = (typeof ROUTES)[number]['id'];

/** A route of the table, by its id. */
export const specRoute = (id: RouteId): RouteSpec => ROUTES.find((route) => route.id === id)!;

/**
 * Not the spec's: routes real clients call that the mock serves by default, where the spec says "The complete
 * list of endpoints beyond those in the table: not shown." The suite judges none of them.
 */
export const MOCK_ROUTES = [
  { id: 'getShip', method: 'GET', path: '/api/player/ship', category: 'read', auth: 'bearer' },
] as const satisfies readonly RouteSpec[];
