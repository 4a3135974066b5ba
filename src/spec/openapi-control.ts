import { controlAnswerSchema } from './control-responses.js';
import { CONTROL_PREFIX, CONTROL_ROUTES, type ControlRouteKey } from './control-routes.js';
import { ERROR_ENVELOPE, SUCCESS_ENVELOPE } from './openapi-schemas.js';
import type { ControlRouteDescription, ControlRouteSummary, JsonSchema, OpenApiOperation, OpenApiParameter, OpenApiTag } from './openapi-types.js';

/** Where a mock serves this document, among its control routes. */
export const OPENAPI_PATH = CONTROL_ROUTES.openApi.pattern;

const DECLARED_ROUTES = new Map(Object.entries(CONTROL_ROUTES).map(([key, route]) => [`${route.method} ${route.pattern}`, key as ControlRouteKey]));

/** The declared body of a JSON route; the bare success envelope for a route the declaration does not know. */
function successSchema(route: ControlRouteSummary): JsonSchema {
  const key = DECLARED_ROUTES.get(`${route.method} ${route.path}`);
  if (key === undefined) return { ...SUCCESS_ENVELOPE, description: 'The success envelope, the data beside `success`.' };
  return controlAnswerSchema(key) ?? { type: 'string' };
}

export const CONTROL_TAG: OpenApiTag = {
  name: 'mock control',
  'x-mock-defined': true,
  description:
    `Mock-only routes under ${CONTROL_PREFIX}; the real service has none. They answer loopback clients only: the TCP peer must be ` +
    "loopback, the Host a loopback name, and a browser's Origin loopback or a game origin, unless the mock runs with " +
    '--control-public. Never rate limited, never journaled, answered with Cache-Control: no-store.',
};

/** An operationId made of what URLs allow unescaped: `/api/galaxy/:id` → `api.galaxy.id`. */
export function urlSafeId(...parts: string[]): string {
  return parts
    .flatMap((part) => part.split('/'))
    .map((segment) => segment.replace(/^:/, '').replace(/[^A-Za-z0-9._~-]/g, '-'))
    .filter((segment) => segment !== '')
    .join('.');
}

/** `/players/:id/encounter` → `/players/{id}/encounter`, with its path parameters. */
export function templatePath(pattern: string): { path: string; parameters: OpenApiParameter[] } {
  const parameters: OpenApiParameter[] = [];
  const segments = pattern.split('/').map((segment) => {
    if (!segment.startsWith(':')) return segment;
    parameters.push({ name: segment.slice(1), in: 'path', required: true, schema: { type: 'string' } });
    return `{${segment.slice(1)}}`;
  });
  return { path: segments.join('/'), parameters };
}

/** The JSON body a control route validates: required where its schema requires a field, some field, or one of several forms. */
function controlBody(route: ControlRouteDescription): OpenApiOperation['requestBody'] | undefined {
  const body = route.input?.body as { required?: unknown; oneOf?: unknown; minProperties?: unknown } | undefined;
  if (body === undefined) {
    if (route.method !== 'POST' && route.method !== 'PUT') return undefined;
    return { required: false, content: { 'application/json': { schema: { type: 'object' } } } };
  }
  const required =
    body.oneOf !== undefined ||
    (Array.isArray(body.required) && body.required.length > 0) ||
    (typeof body.minProperties === 'number' && body.minProperties > 0);
  return { required, content: { 'application/json': { schema: body as JsonSchema } } };
}

/** One control route as an operation: its summary, and the body its declaration gives. */
export function controlOperation(route: ControlRouteDescription, pathParameters: OpenApiParameter[]): OpenApiOperation {
  const query = (route.input?.query ?? []).map((name): OpenApiParameter => ({ name, in: 'query', required: false, schema: { type: 'string' } }));
  const parameters = [...pathParameters, ...query];
  const requestBody = controlBody(route);
  const key = DECLARED_ROUTES.get(`${route.method} ${route.path}`);
  return {
    operationId: key === undefined ? urlSafeId('control', route.method.toLowerCase(), route.path) : `control.${key}`,
    tags: [CONTROL_TAG.name],
    summary: route.summary,
    description: 'Mock-defined; docs/control-api.md describes the bodies.',
    'x-mock-defined': true,
    // No credentials: the loopback guard decides who may call.
    security: [],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody === undefined ? {} : { requestBody }),
    responses: {
      200: {
        description: 'OK',
        content:
          route.contentType === undefined ? { 'application/json': { schema: successSchema(route) } } : { [route.contentType]: { schema: { type: 'string' } } },
      },
      '4XX': {
        description:
          '400 for an invalid body or query (naming the JSON path), 403 from the loopback guard, 404 for an unknown player or scenario, ' +
          '405 for a wrong method (with Allow), 409 when the clock cannot be moved.',
        content: { 'application/json': { schema: ERROR_ENVELOPE } },
      },
    },
  };
}
