import { BEARER_AUTHORIZATION } from '../../src/spec/bearer.js';
import { tableRoutes } from './rule.js';

/** The table's routes that take a token: `METHOD /path`. */
export const PROTECTED_ROUTES = tableRoutes((route) => route.auth !== 'none');

/** The Authorization a request sends, whatever the case of its header's name. */
export function authorizationOf(headers: Readonly<Record<string, string>>): string | undefined {
  if (headers['authorization'] !== undefined) return headers['authorization'];
  for (const name in headers) if (name.toLowerCase() === 'authorization') return headers[name];
  return undefined;
}

/** The bearer token a request sends; undefined without one. */
export function bearerToken(headers: Readonly<Record<string, string>>): string | undefined {
  return BEARER_AUTHORIZATION.exec(authorizationOf(headers)?.trim() ?? '')?.[1];
}
