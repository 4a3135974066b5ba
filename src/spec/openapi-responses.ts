import { HEADERS, type RateLimitCategory } from './limits.js';
import { ERROR_ENVELOPE } from './openapi-schemas.js';
import type { HeaderUnit } from './openapi-variants.js';
import type { JsonSchema, OpenApiHeader, OpenApiReference, OpenApiResponse } from './openapi-types.js';
import type { RouteAuth } from './routes.js';

type HeaderKey = keyof typeof HEADERS;

const RATE_LIMIT_PRESENCE = 'Sent to external callers; the mock leaves it out for game origins on the categories that exempt them.';

/** Each header's description, and an example in the mock's default unit (what Prism, serving the document, answers with). */
const HEADER_NOTES: Record<HeaderKey, { description: string; example: number; mockDefined?: true }> = {
  rateLimitLimit: { description: `Integer: the size of the bucket this request was counted in. ${RATE_LIMIT_PRESENCE}`, example: 30 },
  rateLimitRemaining: { description: `Integer: requests left in that bucket. ${RATE_LIMIT_PRESENCE}`, example: 29 },
  rateLimitReset: {
    description: `Integer, timestamp-like; the spec leaves its unit open. The mock sends the Unix epoch seconds (floor) at which the window ends. ${RATE_LIMIT_PRESENCE}`,
    example: 1_800_000_060,
    mockDefined: true,
  },
  retryAfter: {
    description: 'Integer; the spec leaves its unit open. The mock sends whole seconds until a retry can succeed, rounded up, at least 1.',
    example: 42,
    mockDefined: true,
  },
  actionPointsRemaining: { description: 'Integer: the action points the player has left.', example: 59 },
  actionPointsNextRefill: {
    description: 'Integer, sent when no action points remain; the spec leaves its unit open. The mock sends the seconds until the next point.',
    example: 60,
    mockDefined: true,
  },
};

/** The mock's own unit of a header, in its description: where the spec leaves it open, the unit ends the description. */
const DEFAULT_UNIT = / The mock sends [^.]*\./;

/**
 * The spec's headers, by their (lower-case) names; every integer, none negative. Retry-After comes with every 429.
 * `units` replaces the mock's default unit in a description, for the variant that chose another.
 */
export function componentHeaders(units: Partial<Record<HeaderKey, HeaderUnit>> = {}): Record<string, OpenApiHeader> {
  return Object.fromEntries(
    (Object.keys(HEADERS) as HeaderKey[]).map((key) => {
      const { mockDefined } = HEADER_NOTES[key];
      const unit = units[key];
      const description = unit === undefined ? HEADER_NOTES[key].description : HEADER_NOTES[key].description.replace(DEFAULT_UNIT, ` ${unit.description}`);
      const header: OpenApiHeader = {
        description,
        required: key === 'retryAfter',
        schema: { type: 'integer', minimum: 0 },
        example: unit?.example ?? HEADER_NOTES[key].example,
      };
      return [HEADERS[key], mockDefined ? { ...header, 'x-mock-defined': true } : header];
    }),
  );
}

export const COMPONENT_HEADERS = componentHeaders();

type HeaderEntry = [string, OpenApiHeader | OpenApiReference];

/** A reference to the component, or a copy of it where this response makes it required. */
function header(key: HeaderKey, required = false): HeaderEntry {
  const name = HEADERS[key];
  const component = COMPONENT_HEADERS[name]!;
  return [name, required && !component.required ? { ...component, required } : { $ref: `#/components/headers/${name}` }];
}

const rateLimitHeaders = [header('rateLimitLimit'), header('rateLimitRemaining'), header('rateLimitReset')];

/** What decides which statuses an operation can answer. */
export interface OperationShape {
  category: RateLimitCategory;
  auth: RouteAuth;
  /** Reads a JSON request body, so a malformed one is a 400 and an oversized one a 413. */
  readsBody: boolean;
  /** When the mock answers 404 on this operation's own path: why. */
  notFound?: string;
  /** Statuses beyond the shape's, each with why (a variant's status for a case the spec leaves open). */
  more?: Record<number, string>;
}

/** Descriptions added to a status of one operation, for what the mock decides there. */
export type StatusNotes = Partial<Record<number, string>>;

function errorResponse(description: string, headers: HeaderEntry[], mockDefined = false): OpenApiResponse {
  return {
    description,
    headers: Object.fromEntries(headers),
    content: { 'application/json': { schema: ERROR_ENVELOPE } },
    ...(mockDefined ? { 'x-mock-defined': true } : {}),
  };
}

/** Every status the operation can answer (spec, Errors table), with the headers of spec, Limits. */
export function operationResponses(shape: OperationShape, success: { description: string; schema: JsonSchema }, notes: StatusNotes = {}) {
  const gameplay = shape.category === 'gameplay';
  // Gameplay answers carry the player's points once the token has identified them, errors included; a 429 or 500
  // may come before that.
  const headersOf = (status: number, extra: HeaderEntry[] = []) => [
    ...rateLimitHeaders,
    ...(gameplay && status !== 401 ? [header('actionPointsRemaining', status !== 429 && status !== 500), header('actionPointsNextRefill')] : []),
    ...extra,
  ];
  const describe = (status: number, text: string) => (notes[status] === undefined || notes[status] === '' ? text : `${text} ${notes[status]}`);
  const responses: Record<string, OpenApiResponse> = {
    200: {
      description: describe(200, success.description),
      headers: Object.fromEntries(headersOf(200)),
      content: { 'application/json': { schema: success.schema } },
    },
  };
  if (shape.readsBody) {
    responses[400] = errorResponse(
      describe(400, 'Bad request: missing or invalid parameters. The mock also refuses a body that is not a JSON object sent as JSON.'),
      headersOf(400),
    );
  }
  if (shape.auth !== 'none') responses[401] = errorResponse(describe(401, 'Unauthorized: missing, invalid or expired token.'), headersOf(401));
  if (gameplay || shape.auth === 'verified') {
    const reasons = [
      gameplay ? 'insufficient action points' : '',
      shape.auth === 'verified' ? "an email that is not verified (that status is the mock's choice)" : '',
    ];
    responses[403] = errorResponse(describe(403, `Forbidden: ${reasons.filter(Boolean).join(', or ')}.`), headersOf(403));
  }
  if (shape.notFound !== undefined) responses[404] = errorResponse(describe(404, shape.notFound), headersOf(404), true);
  if (gameplay) responses[409] = errorResponse(describe(409, 'Conflict: a fighter encounter must be resolved first.'), headersOf(409));
  if (shape.readsBody) responses[413] = errorResponse(describe(413, "The body is over the mock's size limit."), headersOf(413), true);
  responses[429] = errorResponse(describe(429, 'Rate limit exceeded.'), headersOf(429, [header('retryAfter')]));
  responses[500] = errorResponse(describe(500, 'Internal server error.'), headersOf(500));
  for (const [status, why] of Object.entries(shape.more ?? {})) {
    const existing = responses[status];
    responses[status] =
      existing === undefined ? errorResponse(why, headersOf(Number(status)), true) : { ...existing, description: `${existing.description} ${why}` };
  }
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)));
}

/** Answers that belong to no operation: a path no route has, a method the path does not take. Both count in the public bucket. */
export const UNROUTED_RESPONSES: Record<string, OpenApiResponse> = {
  NotFound: errorResponse('404: no route has this path.', rateLimitHeaders, true),
  MethodNotAllowed: errorResponse(
    '405: the path exists but not with this method; Allow lists the methods it takes.',
    [
      ...rateLimitHeaders,
      ['allow', { description: 'The methods of the path, comma-separated.', required: true, schema: { type: 'string' }, example: 'GET, HEAD' }],
    ],
    true,
  ),
  TooManyRequests: errorResponse(
    "429 instead of 404 or 405 once the public bucket of the caller's IP is empty.",
    [...rateLimitHeaders, header('retryAfter')],
    true,
  ),
};

/** An operation's responses with the answers of the statuses the mock's fault rules inject on it. */
export function withInjectedStatuses(responses: Readonly<Record<string, OpenApiResponse>>, statuses: readonly number[]): Record<string, OpenApiResponse> {
  const injected = { ...responses };
  for (const status of statuses) {
    const why = `The mock's fault rules inject ${status} on this operation.`;
    const existing = injected[status];
    injected[status] = existing === undefined ? errorResponse(why, rateLimitHeaders, true) : { ...existing, description: `${existing.description} ${why}` };
  }
  return injected;
}

/** Where the token is checked before routing (variant auth-before-routing): an unknown path or method without a valid token. */
export const UNROUTED_UNAUTHORIZED: OpenApiResponse = errorResponse(
  '401 instead of 404 or 405 to a request without a valid token: this mock checks the token before routing.',
  rateLimitHeaders,
  true,
);
