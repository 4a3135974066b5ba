import { RATE_LIMITS, type RateLimitCategory } from '../spec/limits.js';
import { ROUTES } from '../spec/routes.js';
import { actionPointHeaders } from './action-points.js';
import type { ActiveVariants } from './active-variants.js';
import { type Answer, errorAnswer } from './answer.js';
import { authenticate } from './auth.js';
import { unknownFields, readJsonObject } from './body.js';
import { type Clock, isControllable } from './clock.js';
import { controlRouteNotFound, createControlApi, isControlPath } from './control/control-api.js';
import type { ControlRoute } from './control/control-route.js';
import { corsAllows, exposeSpecHeaders, isPreflight, preflightHeaders, responseHeaders } from './cors.js';
import { ApiError } from './errors.js';
import { createFaultInjector, cutOf, waitForLatency } from './fault-injection.js';
import { type FaultInjector, injectedStatusError, NO_FAULTS } from './faults.js';
import { headerValue, type ServiceRequest, type ServiceResponse } from './http.js';
import { httpDate } from './http-date.js';
import { Journal, type JournalEntry, journalPath } from './journal.js';
import { isStoreInterruption, keptBy } from './kept-handle.js';
import { activeVariants, OptionsError, resolveOptions, type ServiceOptions } from './options.js';
import { countExpected, countRequest, fillBucket, fullBucketHeaders } from './rate-limit.js';
import type { RequestContext } from './request-context.js';
import type { Route } from './route-definition.js';
import { apiRoutes } from './route-table.js';
import { methodNotAllowed, type PathMatch, Router, targetFor } from './router.js';
import { type Player, Store } from './store.js';
import type { ExpectedCount } from './store-engine.js';
import { RouteReply } from './user-routes/user-route.js';
import { loadWorld } from './world.js';

export interface Service {
  handle(request: ServiceRequest): Promise<ServiceResponse>;
  readonly clock: Clock;
  readonly store: Store;
  readonly journal: Journal;
  /** The legal variations it plays where the spec is silent; the control API switches them. */
  readonly variants: ActiveVariants;
  /** The fault rules in force and their seed. */
  readonly faults: FaultInjector;
}

/** What admission has found out so far: kept for the answer of an error thrown after it. */
interface Admission {
  route: Route | undefined;
  player: Player | undefined;
  countedAs: RateLimitCategory | undefined;
  /** A bucket's X-RateLimit-* headers. */
  headers: Record<string, string> | undefined;
}

const HEALTH_PATH = ROUTES.find((route) => route.id === 'health')!.path;
const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

const isApiRoute = (target: Route | ControlRoute): target is Route => 'spec' in target;

/** A body with a field the spec does not show, as a server that tags its answers would send it. */
function withRequestId(body: unknown): unknown {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? { ...body, requestId: crypto.randomUUID() } : body;
}

/** The fields of the body a spec route does not name; none when the body is not a JSON object. */
function unnamedFields(route: Route | undefined, request: ServiceRequest): readonly string[] {
  if (route?.bodyFields === undefined) return [];
  try {
    return unknownFields(readJsonObject(request), route.bodyFields);
  } catch {
    return [];
  }
}

export function createService(serviceOptions: ServiceOptions): Service {
  const config = resolveOptions(serviceOptions);
  const variants = activeVariants(serviceOptions.variants);
  const store = new Store(config.bounds, config.storeEngine);
  const journal = new Journal(config.journalSize);
  const faults = createFaultInjector(serviceOptions);
  const reseedPlayers = () => {
    store.clearPlayers();
    if (config.world !== undefined) loadWorld(store, config.actionPoints, config.world, config.clock.now());
  };
  const restored = config.storeEngine?.attach(store, config.clock) === true;
  try {
    if (!restored) reseedPlayers();
  } catch (error) {
    throw error instanceof ApiError ? new OptionsError(`world: ${error.message}`) : error;
  }
  const clock = isControllable(config.clock) ? config.clock : undefined;
  const control = config.control.enabled ? createControlApi({ store, options: config, variants, journal, clock, reseedPlayers, faults }) : undefined;
  const router = new Router<Route | ControlRoute>([
    ...apiRoutes(config.userRoutes).map((route) => ({ method: route.spec.method, path: route.spec.path, target: route })),
    ...(control?.routes ?? []).map((route) => ({ method: route.method, path: route.pattern, target: route, emptyParams: true })),
  ]);

  /** Counts the request in its bucket; a rate-limit fault fills the bucket first, so that the usual 429 answers. */
  function count(context: RequestContext, admission: Admission, category: RateLimitCategory, key: string): void {
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
   * The count `admit` makes of the request once its token proves live, for an engine that counts it in its load
   * round trip; undefined where the count hangs on more (no route, a fault that answers or fills the bucket first).
   */
  function expectedCount(context: RequestContext): ExpectedCount | undefined {
    const { request, faults } = context;
    if (faults?.status !== undefined || faults?.rateLimit === true || (control !== undefined && isControlPath(request.path))) return undefined;
    const match = router.match(request.path);
    const route = match === undefined ? undefined : apiRouteFor(context, match);
    if (route === undefined || !isCounted(context, route)) return undefined;
    const ip = isKeyedByPlayer(route) ? undefined : context.caller.ip;
    return countExpected(context, route.spec.category, ip, route.spec.auth !== 'none', context.now);
  }

  /** Routing, authentication and rate limiting: the route to run, or a thrown ApiError. */
  function admit(context: RequestContext, admission: Admission): Route {
    const { request } = context;
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

  /** The answer with what the journal records of it: the route, the player, the bucket, the body's unnamed fields. */
  function decided(context: RequestContext, admission: Admission, status: number, body: unknown, headers: Readonly<Record<string, string>>): Answer {
    const { route, player, countedAs } = admission;
    return { status, body, headers, route: route?.spec, player, countedAs, unknownFields: unnamedFields(route, context.request) };
  }

  function answered(context: RequestContext, admission: Admission, result: unknown): Answer {
    const headers = admission.headers ?? NO_HEADERS;
    return result instanceof RouteReply ? decided(context, admission, result.status, result.body, headers) : decided(context, admission, 200, result, headers);
  }

  function refused(context: RequestContext, admission: Admission, error: unknown): Answer {
    if (isStoreInterruption(error)) throw error;
    const failed = errorAnswer(error, config.onError, unnamedFields(admission.route, context.request));
    return decided(
      context,
      admission,
      failed.status,
      failed.body,
      admission.headers === undefined ? failed.headers : { ...admission.headers, ...failed.headers },
    );
  }

  /** Synchronous unless the handler returns a promise: most routes answer at once; those that hash a code, and handlers of the user, may not. */
  function answerApi(context: RequestContext): Answer | Promise<Answer> {
    const admission: Admission = { route: undefined, player: undefined, countedAs: undefined, headers: undefined };
    try {
      if (context.faults?.status !== undefined) throw injectedStatusError(context.faults);
      const route = admit(context, admission);
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

  async function answerControl(context: RequestContext): Promise<Answer> {
    try {
      control!.assertAllowed(context.request);
      const { method, path } = context.request;
      const match = router.match(path);
      if (match === undefined) throw controlRouteNotFound(path);
      const route = targetFor(match, method);
      if (route === undefined || isApiRoute(route)) throw methodNotAllowed(method, path, match);
      return control!.answer(route, { request: context.request, now: context.now, params: match.params(route) });
    } catch (error) {
      return errorAnswer(error, config.onError);
    }
  }

  /** The part a store keeps, journal included, so that an engine keeps the request's entry with its records. */
  function answerStateful(context: RequestContext): Answer | Promise<Answer> {
    if (control !== undefined && isControlPath(context.request.path)) return answerControl(context);
    const answer = answerApi(context);
    if (answer instanceof Promise) return answer.then((value) => recorded(context, value));
    return recorded(context, answer);
  }

  const engine = config.storeEngine;
  const kept = engine === undefined ? undefined : keptBy(engine, answerStateful, config.onStoreStatus, expectedCount);

  /** The one place an answer's headers are built: CORS, Date, the outcome's own, the points left, what a page may read. */
  function respond(context: RequestContext, answer: Answer, isControl: boolean): ServiceResponse {
    const { corsOrigin } = context.caller;
    const headers = responseHeaders(corsOrigin);
    // A control request may move the clock: its Date reads the new time.
    headers['date'] = httpDate(isControl ? config.clock.now() : context.now);
    if (isControl) headers['cache-control'] = 'no-store';
    Object.assign(headers, answer.headers);
    if (answer.route?.category === 'gameplay' && answer.player !== undefined) {
      Object.assign(headers, actionPointHeaders(answer.player.actionPoints, config.actionPoints, context.variants, config.clock.now()));
    }
    if (isControl) return { status: answer.status, headers, body: answer.body, ...(answer.content === undefined ? {} : { content: answer.content }) };
    if (corsOrigin !== undefined) exposeSpecHeaders(headers);
    const cut = cutOf(context.faults);
    const body = context.variants.has('extra-body-fields') ? withRequestId(answer.body) : answer.body;
    return cut === undefined ? { status: answer.status, headers, body } : { status: answer.status, headers, body, cut };
  }

  function recorded(context: RequestContext, answer: Answer): Answer {
    record(context, answer);
    return answer;
  }

  function record(context: RequestContext, answer: Answer): void {
    const entry: JournalEntry = {
      atMs: context.now,
      method: context.request.method,
      path: journalPath(context.request.path),
      status: answer.status,
      category: answer.route?.category ?? answer.countedAs ?? null,
      route: answer.route?.id ?? null,
      unknownFields: answer.unknownFields !== undefined && answer.unknownFields.length > 0 ? [...answer.unknownFields] : null,
      ip: context.request.ip,
      origin: context.caller.origin ?? null,
      playerId: answer.player?.id ?? null,
      fault: context.faults?.labels ?? null,
    };
    journal.add(entry);
    config.onRequest?.(entry);
  }

  /** Answered before authentication, routing, counting and faults, on every path; never counted. */
  function answerPreflight(context: RequestContext, isControl: boolean): ServiceResponse {
    const headers = { ...preflightHeaders(context.request, context.caller.corsOrigin), date: httpDate(context.now) };
    const response: ServiceResponse = { status: 204, headers, body: undefined };
    if (!isControl) record(context, response);
    return response;
  }

  async function handle(request: ServiceRequest): Promise<ServiceResponse> {
    const origin = headerValue(request, 'origin');
    const isControl = control !== undefined && isControlPath(request.path);
    // The control API keeps its own origin rules; the API lets through the CORS origins and the game origins.
    const allowed = origin !== undefined && (isControl ? control.allowsOrigin(origin) : corsAllows(config.corsOrigins, config.gameOrigins, origin));
    const caller = { ip: request.ip, origin, isGameOrigin: origin !== undefined && config.gameOrigins.has(origin), corsOrigin: allowed ? origin : undefined };
    const preflight = isPreflight(request, caller.corsOrigin);
    const met = isControl || preflight ? NO_FAULTS : faults.draw(request.method, request.path);
    const arrive = (): RequestContext => ({
      request,
      now: config.clock.now(),
      config,
      variants: variants.current,
      store,
      caller,
      faults: met === NO_FAULTS ? undefined : met,
    });
    if (preflight) return answerPreflight(arrive(), isControl);
    if (met.latencyMs > 0) await waitForLatency(met);
    if (kept === undefined) {
      const context = arrive();
      const answer = answerStateful(context);
      return respond(context, answer instanceof Promise ? await answer : answer, isControl);
    }
    const { context, answer } = await kept(request, arrive);
    return respond(context, answer, isControl);
  }

  return { handle, clock: config.clock, store, journal, variants, faults };
}
