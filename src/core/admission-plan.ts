import { RATE_LIMITS, type RateLimitCategory } from '../spec/limits.js';
import { specRoute } from '../spec/routes.js';
import { ApiError } from './errors.js';
import { injectedStatusError } from './faults.js';
import { windowEndOf } from './rate-limit.js';
import type { RequestContext } from './request-context.js';
import type { Route } from './route-definition.js';
import { methodNotAllowed, type PathMatch, type Router, targetFor } from './router.js';
import type { PrecountBucket, RequestLoad } from './store-engine.js';

/**
 * The bucket a request counts in: its category's, keyed by the client address or by the token's player, or none
 * where a game origin is exempt from the category (shown a full bucket's headers where that variant plays).
 */
export interface PlannedCount {
  readonly category: RateLimitCategory;
  readonly by: 'ip' | 'player' | 'exempt';
  readonly showsFullBucket?: true;
}

/**
 * What an API request needs before its handler runs, decided once from its context alone (no record read): the
 * route or the refusal, whether a live token is needed, and the bucket to count. Admission carries it out; an engine
 * that loads the request's records first is handed it, to load and count what admission will read.
 */
export interface AdmissionPlan {
  readonly control: false;
  /** The route to run; undefined where the request is refused whatever its token. */
  readonly route: Route | undefined;
  /** Thrown once the token is checked and the request counted: the 404, the 405, a fault's status. */
  readonly refusal: ApiError | undefined;
  /** A live bearer token is needed: the request is refused 401 without one. */
  readonly needsToken: boolean;
  /** Where the request counts when it needs no token or its token is live; undefined: nowhere. */
  readonly count: PlannedCount | undefined;
  /** Where a request refused 401 counts; undefined: nowhere. */
  readonly countUnauthorized: PlannedCount | undefined;
  /** A rate-limit fault fills the bucket before the count, so that the usual 429 answers. */
  readonly fillsBucketFirst: boolean;
}

/** A control request: answered by the control API's router, never counted. */
export const CONTROL_PLAN = { control: true } as const;

/** What a request needs: the control API's answer, or an API request's admission. */
export type RequestPlan = typeof CONTROL_PLAN | AdmissionPlan;

const HEALTH_PATH = specRoute('health').path;
/** Every count a plan may name, made once: a plan names one of them instead of making its own. */
const PLANNED_COUNTS = Object.fromEntries(
  (Object.keys(RATE_LIMITS) as RateLimitCategory[]).map((category) => [
    category,
    {
      ip: { category, by: 'ip' },
      player: { category, by: 'player' },
      exempt: { category, by: 'exempt' },
      exemptShown: { category, by: 'exempt', showsFullBucket: true },
    } satisfies Record<string, PlannedCount>,
  ]),
) as Record<RateLimitCategory, Record<'ip' | 'player' | 'exempt' | 'exemptShown', PlannedCount>>;
const PUBLIC_BY_IP = PLANNED_COUNTS.public.ip;
const PUBLIC_EXEMPT = PLANNED_COUNTS.public.exempt;
const CONTROL_LOAD: RequestLoad = { control: true, precount: undefined };

/** The API route serving the request: /health under that variant answers every method but a preflight. */
function routeFor(context: RequestContext, match: PathMatch<Route>): Route | undefined {
  const { method, path } = context.request;
  return targetFor(match, method) ?? (context.variants.has('health-any-method') && path === HEALTH_PATH ? match.byMethod.get('GET') : undefined);
}

/** A routed request's bucket: a route that authenticates its player counts a player-scoped category by that player. */
function routeCount(context: RequestContext, route: Route): PlannedCount {
  const { category, auth } = route.spec;
  const { scope, exemptForGameOrigins } = RATE_LIMITS[category];
  const counts = PLANNED_COUNTS[category];
  if (exemptForGameOrigins && context.caller.isGameOrigin) return context.variants.has('ratelimit-headers-on-exempt') ? counts.exemptShown : counts.exempt;
  return scope === 'player' && auth !== 'none' ? counts.player : counts.ip;
}

/** Where a request refused 401 counts: as an unroutable one, unless that variant counts it nowhere. */
function unauthorizedCount(context: RequestContext, needsToken: boolean, publicCount: PlannedCount): PlannedCount | undefined {
  return needsToken && !context.variants.has('unauthorized-not-counted') ? publicCount : undefined;
}

/** The plan of a request refused whatever its token: counted as a public read (by `count`, also when refused 401), or nowhere. */
function refusedPlan(context: RequestContext, refusal: ApiError, count: PlannedCount | undefined, needsToken: boolean): AdmissionPlan {
  const countUnauthorized = count === undefined ? undefined : unauthorizedCount(context, needsToken, count);
  return { control: false, route: undefined, refusal, needsToken, count, countUnauthorized, fillsBucketFirst: context.faults?.rateLimit === true };
}

/**
 * The plan of an API request routed by `router`. Unroutable and unauthenticated requests are public reads by IP
 * (game origins exempt); a fault's status answers before any count.
 */
export function planAdmission(context: RequestContext, router: Router<Route>): AdmissionPlan {
  const { request, faults } = context;
  if (faults?.status !== undefined) return refusedPlan(context, injectedStatusError(faults), undefined, false);
  const publicCount = context.caller.isGameOrigin ? PUBLIC_EXEMPT : PUBLIC_BY_IP;
  const match = router.match(request.path);
  if (match === undefined) {
    return refusedPlan(context, new ApiError(404, `No route for ${request.path}`), publicCount, context.variants.has('auth-before-routing'));
  }
  const route = routeFor(context, match);
  if (route === undefined) return refusedPlan(context, methodNotAllowed(request.method, request.path, match), publicCount, false);
  const needsToken = route.spec.auth !== 'none';
  return {
    control: false,
    route,
    refusal: undefined,
    needsToken,
    count: routeCount(context, route),
    countUnauthorized: unauthorizedCount(context, needsToken, publicCount),
    fillsBucketFirst: faults?.rateLimit === true,
  };
}

function precountBucket(context: RequestContext, planned: PlannedCount | undefined): PrecountBucket | undefined {
  if (planned === undefined || planned.by === 'exempt') return undefined;
  return { category: planned.category, ip: planned.by === 'ip' ? context.caller.ip : undefined, limit: RATE_LIMITS[planned.category].limit };
}

/**
 * What an engine that loads a request's records first is told of its plan: whether it is a control request, and
 * the count admission will make at the request's instant, which the engine may make with the load; none where a
 * fault fills the bucket before the count.
 */
export function requestLoad(context: RequestContext, plan: RequestPlan): RequestLoad {
  if (plan.control) return CONTROL_LOAD;
  if (plan.fillsBucketFirst) return { control: false, precount: undefined };
  const admitted = precountBucket(context, plan.count);
  const unauthorized = plan.needsToken ? precountBucket(context, plan.countUnauthorized) : undefined;
  if (admitted === undefined && unauthorized === undefined) return { control: false, precount: undefined };
  const { now } = context;
  return { control: false, precount: { now, windowEnd: windowEndOf(context, now), needsToken: plan.needsToken, admitted, unauthorized } };
}
