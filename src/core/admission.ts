import { RATE_LIMITS, type RateLimitCategory } from '../spec/limits.js';
import { ROUTES } from '../spec/routes.js';
import { authenticate } from './auth.js';
import type { ControlRoute } from './control/control-route.js';
import { ApiError } from './errors.js';
import { countExpected, countRequest, fillBucket, fullBucketHeaders } from './rate-limit.js';
import type { RequestContext } from './request-context.js';
import type { Route } from './route-definition.js';
import { methodNotAllowed, type PathMatch, type Router, targetFor } from './router.js';
import type { Player } from './store.js';
import type { ExpectedCount } from './store-engine.js';

/** What admission has found out so far: kept for the answer of an error thrown after it. */
export interface Admission {
  route: Route | undefined;
  player: Player | undefined;
  countedAs: RateLimitCategory | undefined;
  /** A bucket's X-RateLimit-* headers. */
  headers: Record<string, string> | undefined;
}

export type ServiceRouter = Router<Route | ControlRoute>;

const HEALTH_PATH = ROUTES.find((route) => route.id === 'health')!.path;

export const isApiRoute = (target: Route | ControlRoute): target is Route => 'spec' in target;

export function newAdmission(): Admission {
  return { route: undefined, player: undefined, countedAs: undefined, headers: undefined };
}

/** Counts the request in its bucket; a rate-limit fault fills the bucket first, so that the usual 429 answers. */
function count(context: RequestContext, admission: Admission, category: RateLimitCategory, key: string): void {
  const { store } = context;
  if (context.faults?.rateLimit === true) fillBucket(store, context, category, key, context.now);
  const counted = countRequest(store, context, category, key, context.now);
  admission.headers = counted.headers;
  if (counted.refusal !== undefined) throw counted.refusal;
}

/** Unauthenticated and unroutable requests are public reads by IP; game origins are exempt. */
function countAsPublic(context: RequestContext, admission: Admission): void {
  admission.countedAs = 'public';
  if (!context.caller.isGameOrigin) count(context, admission, 'public', context.caller.ip);
}

/** A request without a valid token: 401, counted as a public read by IP unless that variant counts it nowhere. */
function unauthorized(context: RequestContext, admission: Admission): ApiError {
  if (!context.variants.has('unauthorized-not-counted')) countAsPublic(context, admission);
  return new ApiError(401, 'Missing, invalid or expired bearer token');
}

/** The API route serving the request: /health under that variant answers every method but a preflight. */
function apiRouteFor(context: RequestContext, match: PathMatch<Route | ControlRoute>): Route | undefined {
  const { method, path } = context.request;
  const route = targetFor(match, method) ?? (context.variants.has('health-any-method') && path === HEALTH_PATH ? match.byMethod.get('GET') : undefined);
  return route !== undefined && isApiRoute(route) ? route : undefined;
}

/** Whether a routed request counts in its category's bucket: a game origin is exempt from some. */
function isCounted(context: RequestContext, route: Route): boolean {
  return !(RATE_LIMITS[route.spec.category].exemptForGameOrigins && context.caller.isGameOrigin);
}

/** A route that authenticates its player counts a player-scoped category by that player, any other by the client address. */
function isKeyedByPlayer(route: Route): boolean {
  return RATE_LIMITS[route.spec.category].scope === 'player' && route.spec.auth !== 'none';
}

/**
 * The count `admit` makes of an API request once its token proves live, for an engine that counts it in its load
 * round trip; undefined where the count hangs on more (no route, a fault that answers or fills the bucket first).
 */
export function expectedCount(context: RequestContext, router: ServiceRouter): ExpectedCount | undefined {
  const { request, faults } = context;
  if (faults?.status !== undefined || faults?.rateLimit === true) return undefined;
  const match = router.match(request.path);
  const route = match === undefined ? undefined : apiRouteFor(context, match);
  if (route === undefined || !isCounted(context, route)) return undefined;
  const ip = isKeyedByPlayer(route) ? undefined : context.caller.ip;
  return countExpected(context, route.spec.category, ip, route.spec.auth !== 'none', context.now);
}

/** Routing, authentication and rate limiting: the route to run, or a thrown ApiError. */
export function admit(context: RequestContext, router: ServiceRouter, admission: Admission): Route {
  const { request, store } = context;
  const match = router.match(request.path);
  if (match === undefined) {
    if (context.variants.has('auth-before-routing') && authenticate(store, request, context.now) === undefined) throw unauthorized(context, admission);
    countAsPublic(context, admission);
    throw new ApiError(404, `No route for ${request.path}`);
  }
  const route = apiRouteFor(context, match);
  if (route === undefined) {
    countAsPublic(context, admission);
    throw methodNotAllowed(request.method, request.path, match);
  }
  admission.route = route;
  if (route.spec.auth !== 'none') {
    admission.player = authenticate(store, request, context.now);
    if (admission.player === undefined) throw unauthorized(context, admission);
  }
  if (isCounted(context, route)) {
    count(context, admission, route.spec.category, isKeyedByPlayer(route) ? admission.player!.id : context.caller.ip);
  } else if (context.variants.has('ratelimit-headers-on-exempt')) {
    admission.headers = fullBucketHeaders(context, route.spec.category, context.now);
  }
  return route;
}
