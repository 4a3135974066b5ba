import type { RateLimitCategory } from '../spec/limits.js';
import { ApiError, errorBody, MissingFieldError } from './errors.js';
import type { ServiceResponse } from './http.js';
import type { RouteDefinition } from './route-definition.js';
import type { Player } from './store.js';

/**
 * What a request's handling decided, before the headers every answer shares are added: its status and body, the
 * headers of its own outcome (a bucket's X-RateLimit-*, Retry-After, Allow), and what the journal records.
 */
export interface Answer {
  readonly status: number;
  /** A JSON value, or undefined for no body. */
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;
  /** Text or a stream of text sent instead of `body` (the dashboard's files, the journal's events). */
  readonly content?: ServiceResponse['content'];
  readonly route?: RouteDefinition | undefined;
  readonly player?: Player | undefined;
  /** The bucket a request without a route (404, 405, 401) was counted in. */
  readonly countedAs?: RateLimitCategory | undefined;
  /** The body's fields the spec does not name, on a spec route that reads one. */
  readonly unknownFields?: readonly string[] | undefined;
  /** A route's answer given from the recorded answer of these values, none of its answers holding (X-Mock-Generalised). */
  readonly generalisedFrom?: string | undefined;
}

export const INTERNAL_ERROR_MESSAGE = 'Internal server error';

/** The headers of an answer whose outcome adds none. */
export const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * The one place an error becomes an envelope: an ApiError answers its own status (a missing field also naming the
 * fields sent instead); anything else is a bug, told to `onError` and answered 500.
 */
export function errorAnswer(error: unknown, onError: (error: unknown) => void, unknownFields: readonly string[] = []): Answer {
  if (error instanceof ApiError) {
    const message = error instanceof MissingFieldError ? error.naming(unknownFields) : error.message;
    return { status: error.status, headers: error.headers, body: errorBody(message) };
  }
  onError(error);
  return { status: 500, headers: {}, body: errorBody(INTERNAL_ERROR_MESSAGE) };
}
