import { ROUTES } from '../../src/spec/routes.js';

/** "Authorization: Bearer <AUTH_TOKEN>" (the scheme's name in any case, as HTTP reads it). */
const BEARER = /^bearer\s+(\S+)$/i;

/** The table's routes that take a token: `METHOD /path`. */
export const PROTECTED_ROUTES: ReadonlySet<string> = new Set(ROUTES.filter((route) => route.auth !== 'none').map((route) => `${route.method} ${route.path}`));

/** The bearer token a request sends, whatever the case of its header's name; undefined without one. */
export function bearerToken(headers: Readonly<Record<string, string>>): string | undefined {
  const value = headers['authorization'] ?? Object.entries(headers).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  return value === undefined ? undefined : BEARER.exec(value.trim())?.[1];
}
