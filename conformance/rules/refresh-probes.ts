/** Where a server with a refresh operation would plausibly have it: each sent with the token as a bearer and in the body. */
export const REFRESH_ROUTES = [
  ['POST', '/api/auth/refresh'],
  ['POST', '/api/auth/refresh-token'],
  ['POST', '/api/auth/token/refresh'],
  ['POST', '/api/auth/token'],
  ['POST', '/api/auth/renew'],
  ['GET', '/api/auth/refresh'],
  ['POST', '/api/player/token'],
] as const;

/** Those routes as routeKey writes them (`POST /api/auth/refresh`): where TOKEN-NO-REFRESH judges. */
export const REFRESH_ROUTE_KEYS: ReadonlySet<string> = new Set(REFRESH_ROUTES.map(([method, path]) => `${method} ${path}`));

/** Whether a request goes where a refresh operation would plausibly be. */
export function refreshRoute(method: string, path: string): boolean {
  return REFRESH_ROUTES.some(([routeMethod, routePath]) => routeMethod === method.toUpperCase() && routePath === path);
}

/** A string that could be a bearer token: no spaces, 16 to 512 characters of the kinds tokens use. */
const TOKEN_LIKE = /^[A-Za-z0-9._~+/-]{16,512}={0,2}$/;
const MAX_CANDIDATES = 5;

/** The strings of a JSON body that could be a token other than `sent`, at any depth (a few at most). */
export function tokenCandidates(body: unknown, sent: string): string[] {
  const found = new Set<string>();
  const visit = (value: unknown): void => {
    if (found.size >= MAX_CANDIDATES) return;
    if (typeof value === 'string') {
      if (value !== sent && value.toLowerCase() !== sent.toLowerCase() && TOKEN_LIKE.test(value)) found.add(value);
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item);
    } else if (typeof value === 'object' && value !== null) {
      for (const item of Object.values(value)) visit(item);
    }
  };
  visit(body);
  return [...found];
}
