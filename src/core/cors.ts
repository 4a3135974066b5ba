import { HEADERS } from '../spec/limits.js';

const EXPOSABLE_HEADERS = Object.values(HEADERS);

/** Headers every response carries; a configured game origin is also let through CORS. */
export function responseHeaders(origin: string | undefined, isGameOrigin: boolean): Record<string, string> {
  if (!isGameOrigin || origin === undefined) return { vary: 'Origin' };
  return { vary: 'Origin', 'access-control-allow-origin': origin };
}

/**
 * Lets a game client's script read the spec's headers that this response carries. Listing only those
 * present keeps the many responses that carry none (exempt reads) short.
 */
export function exposeSpecHeaders(headers: Record<string, string>): void {
  const present = EXPOSABLE_HEADERS.filter((name) => name in headers);
  if (present.length > 0) headers['access-control-expose-headers'] = present.join(', ');
}

/** The 204 answer to a game origin's preflight; it is not counted against any bucket. */
export function preflightHeaders(origin: string, allowedMethods: readonly string[]): Record<string, string> {
  return {
    ...responseHeaders(origin, true),
    'access-control-allow-methods': allowedMethods.join(', '),
    'access-control-allow-headers': 'Authorization, Content-Type',
    'access-control-max-age': '600',
  };
}
