import type { Answer } from './answer.js';
import { isJsonObject } from './body.js';
import { exposeSpecHeaders, responseHeaders } from './cors.js';
import { cutOf } from './fault-injection.js';
import type { ServiceResponse } from './http.js';
import { httpDate } from './http-date.js';
import type { RequestContext } from './request-context.js';

/** A body with a field the spec does not show, as a server that tags its answers would send it. */
function withRequestId(body: unknown): unknown {
  return isJsonObject(body) ? { ...body, requestId: crypto.randomUUID() } : body;
}

/**
 * The one place an answer's headers are built: CORS, Date, the outcome's own (the points left among them), what a
 * page may read. It reads the context and the answer only: what the request changed was kept before.
 */
export function respond(context: RequestContext, answer: Answer): ServiceResponse {
  const { config, caller, isControl } = context;
  const headers = responseHeaders(caller.corsOrigin);
  // A control request may move the clock: its Date reads the new time.
  headers['date'] = httpDate(isControl ? config.clock.now() : context.now);
  if (isControl) headers['cache-control'] = 'no-store';
  Object.assign(headers, answer.headers);
  if (isControl) return { status: answer.status, headers, body: answer.body, ...(answer.content === undefined ? {} : { content: answer.content }) };
  if (caller.corsOrigin !== undefined) exposeSpecHeaders(headers, answer.headers);
  const cut = cutOf(context.faults);
  const body = context.variants.has('extra-body-fields') ? withRequestId(answer.body) : answer.body;
  return cut === undefined ? { status: answer.status, headers, body } : { status: answer.status, headers, body, cut };
}
