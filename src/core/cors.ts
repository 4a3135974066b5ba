import { HEADERS } from '../spec/limits.js';
import { headerValue, type ServiceRequest } from './http.js';
import { GENERALISED_HEADER } from './user-routes/generalised-answers.js';

/** The spec's headers, and the mark of a generalised answer, each with its place in the list a page is told it may read. */
const EXPOSABLE_ORDER: ReadonlyMap<string, number> = new Map([...Object.values(HEADERS), GENERALISED_HEADER].map((name, index) => [name, index]));
const DEFAULT_ALLOWED_HEADERS = 'Authorization, Content-Type';
/** Header names as a browser lists them in Access-Control-Request-Headers: tokens separated by commas. */
const HEADER_LIST = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+(\s*,\s*[!#$%&'*+\-.^_`|~0-9A-Za-z]+)*$/;
const METHOD_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const EVERY_METHOD = 'GET, HEAD, POST, PUT, PATCH, DELETE';

/**
 * Which page origins a browser may read the API's answers from: every origin (the default, for local
 * development), or only those listed. Game origins are always let through; CORS grants no rate-limit exemption.
 */
export type CorsOrigins = 'any' | ReadonlySet<string>;

export function corsAllows(corsOrigins: CorsOrigins, gameOrigins: ReadonlySet<string>, origin: string): boolean {
  return corsOrigins === 'any' || corsOrigins.has(origin) || gameOrigins.has(origin);
}

/** Headers every response carries; an origin let through CORS is reflected. */
export function responseHeaders(allowedOrigin: string | undefined): Record<string, string> {
  if (allowedOrigin === undefined) return { vary: 'Origin' };
  return { vary: 'Origin', 'access-control-allow-origin': allowedOrigin, 'access-control-allow-credentials': 'true' };
}

/**
 * Lets a page's script read the spec's headers (and X-Mock-Generalised) that this response carries, all of which come from the outcome's
 * own headers. Listing only those present keeps the many responses that carry none (exempt reads) short; looking
 * through the outcome's few headers, not probing the whole response for each of the spec's, keeps it cheap.
 */
export function exposeSpecHeaders(headers: Record<string, string>, own: Readonly<Record<string, string>>): void {
  const present: string[] = [];
  for (const name in own) if (EXPOSABLE_ORDER.has(name)) present.push(name);
  if (present.length === 0) return;
  present.sort((a, b) => EXPOSABLE_ORDER.get(a)! - EXPOSABLE_ORDER.get(b)!);
  headers['access-control-expose-headers'] = present.join(', ');
}

/**
 * A browser's CORS preflight: OPTIONS naming the method it is about to send, or any OPTIONS from an origin
 * let through CORS (older clients and tools probe so).
 */
export function isPreflight(request: ServiceRequest, allowedOrigin: string | undefined): boolean {
  return request.method === 'OPTIONS' && (allowedOrigin !== undefined || headerValue(request, 'access-control-request-method') !== undefined);
}

/**
 * The 204 answer to a preflight, on any path: it grants the method and headers asked for (the request that
 * follows is judged on its own), to an allowed origin only; it is not counted against any bucket.
 */
export function preflightHeaders(request: ServiceRequest, allowedOrigin: string | undefined): Record<string, string> {
  const headers = responseHeaders(allowedOrigin);
  if (allowedOrigin === undefined) return headers;
  const method = headerValue(request, 'access-control-request-method')?.trim();
  const asked = headerValue(request, 'access-control-request-headers')?.trim();
  return {
    ...headers,
    'access-control-allow-methods': method !== undefined && METHOD_TOKEN.test(method) ? method : EVERY_METHOD,
    'access-control-allow-headers': asked !== undefined && HEADER_LIST.test(asked) ? asked : DEFAULT_ALLOWED_HEADERS,
    'access-control-max-age': '600',
  };
}
