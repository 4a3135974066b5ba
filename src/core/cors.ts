import { HEADERS } from '../spec/limits.js';

const EXPOSED_HEADERS = Object.values(HEADERS).join(', ');

/** Headers every response carries; a configured game origin is also let through CORS. */
export function responseHeaders(origin: string | undefined, isGameOrigin: boolean): Record<string, string> {
  if (!isGameOrigin || origin === undefined) return { vary: 'Origin' };
  return {
    vary: 'Origin',
    'access-control-allow-origin': origin,
    'access-control-expose-headers': EXPOSED_HEADERS,
  };
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
