import { type Admission, admit, newAdmission } from './admission.js';
import type { AdmissionPlan } from './admission-plan.js';
import { actionPointHeaders } from './action-points.js';
import { type Answer, errorAnswer, NO_HEADERS } from './answer.js';
import { readJsonObject, unknownFields } from './body.js';
import type { ServiceRequest } from './http.js';
import { isStoreInterruption } from './kept-handle.js';
import type { RequestContext } from './request-context.js';
import type { Route } from './route-definition.js';
import { GENERALISED_HEADER } from './user-routes/generalised-answers.js';
import { RouteReply } from './user-routes/user-route.js';

/** The fields of the body a spec route does not name; none when the body is not a JSON object. */
function unnamedFields(route: Route | undefined, request: ServiceRequest): readonly string[] {
  if (route?.bodyFields === undefined) return [];
  try {
    return unknownFields(readJsonObject(request), route.bodyFields);
  } catch {
    return [];
  }
}

/**
 * The answer with what the journal records of it: the route, the player, the bucket, the body's unnamed fields;
 * on gameplay, the points its player has left, brought up to the request's time before the engine keeps them.
 */
function decided(
  context: RequestContext,
  admission: Admission,
  unknown: readonly string[],
  status: number,
  body: unknown,
  own: Readonly<Record<string, string>>,
): Answer {
  const { route, player, countedAs } = admission;
  const headers =
    route?.spec.category === 'gameplay' && player !== undefined
      ? { ...own, ...actionPointHeaders(player.actionPoints, context.config.actionPoints, context.variants, context.now) }
      : own;
  return { status, body, headers, route: route?.spec, player, countedAs, unknownFields: unknown };
}

function answered(context: RequestContext, admission: Admission, result: unknown): Answer {
  const headers = admission.headers ?? NO_HEADERS;
  const unknown = unnamedFields(admission.route, context.request);
  if (!(result instanceof RouteReply)) return decided(context, admission, unknown, 200, result, headers);
  const generalisedFrom = result.headers?.[GENERALISED_HEADER];
  const answer = decided(context, admission, unknown, result.status, result.body, result.headers === undefined ? headers : { ...headers, ...result.headers });
  return generalisedFrom === undefined ? answer : { ...answer, generalisedFrom };
}

function refused(context: RequestContext, admission: Admission, error: unknown): Answer {
  if (isStoreInterruption(error)) throw error;
  // Read once: the refusal names them, and the journal records them.
  const unknown = unnamedFields(admission.route, context.request);
  const failed = errorAnswer(error, context.config.onError, unknown);
  const headers = admission.headers === undefined ? failed.headers : { ...admission.headers, ...failed.headers };
  return decided(context, admission, unknown, failed.status, failed.body, headers);
}

/**
 * An API request's answer: admitted as its plan says, then its route's handler. Synchronous unless the handler
 * returns a promise: most routes answer at once; those that hash a code, and handlers of the user, may not.
 */
export function answerApi(context: RequestContext, plan: AdmissionPlan): Answer | Promise<Answer> {
  const admission = newAdmission();
  try {
    const route = admit(context, plan, admission);
    const result = route.handle(context, admission.player);
    if (!(result instanceof Promise)) return answered(context, admission, result);
    return result.then(
      (value: unknown) => answered(context, admission, value),
      (error: unknown) => refused(context, admission, error),
    );
  } catch (error) {
    return refused(context, admission, error);
  }
}
