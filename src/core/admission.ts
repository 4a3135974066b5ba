import type { RateLimitCategory } from '../spec/limits.js';
import type { AdmissionPlan, PlannedCount } from './admission-plan.js';
import { authenticate } from './auth.js';
import { ApiError } from './errors.js';
import { countRequest, fillBucket, fullBucketHeaders } from './rate-limit.js';
import type { RequestContext } from './request-context.js';
import type { Route } from './route-definition.js';
import type { Player } from './store.js';

/** What admission has found out so far: kept for the answer of an error thrown after it. */
export interface Admission {
  route: Route | undefined;
  player: Player | undefined;
  countedAs: RateLimitCategory | undefined;
  /** A bucket's X-RateLimit-* headers. */
  headers: Record<string, string> | undefined;
}

export function newAdmission(): Admission {
  return { route: undefined, player: undefined, countedAs: undefined, headers: undefined };
}

/** Counts the request where the plan says; a rate-limit fault fills the bucket first, so that the usual 429 answers. */
function count(context: RequestContext, plan: AdmissionPlan, planned: PlannedCount | undefined, admission: Admission, player?: Player): void {
  if (planned === undefined) return;
  const { category, by } = planned;
  admission.countedAs = category;
  if (by === 'exempt') {
    if (planned.showsFullBucket === true) admission.headers = fullBucketHeaders(context, category, context.now);
    return;
  }
  const { store, now } = context;
  const key = by === 'player' ? player!.id : context.caller.ip;
  if (plan.fillsBucketFirst) fillBucket(store, context, category, key, now);
  const counted = countRequest(store, context, category, key, now);
  admission.headers = counted.headers;
  if (counted.refusal !== undefined) throw counted.refusal;
}

/** Carries out the plan: checks the token, counts the request; the route to run, or a thrown ApiError. */
export function admit(context: RequestContext, plan: AdmissionPlan, admission: Admission): Route {
  const { route } = plan;
  admission.route = route;
  let player: Player | undefined;
  if (plan.needsToken) {
    player = authenticate(context.store, context.request, context.now);
    if (player === undefined) {
      count(context, plan, plan.countUnauthorized, admission);
      throw new ApiError(401, 'Missing, invalid or expired bearer token');
    }
    // A request refused whatever its token names no player.
    if (route !== undefined) admission.player = player;
  }
  count(context, plan, plan.count, admission, player);
  if (route === undefined) throw plan.refusal!;
  return route;
}
