import { RATE_LIMITS, type RateLimitCategory } from '../spec/limits.js';
import { ROUTES } from '../spec/routes.js';
import type { ActiveVariants } from './active-variants.js';
import { actionPointHeaders } from './action-points.js';
import { authenticate } from './auth.js';
import { isControllable, type Clock } from './clock.js';
import { createControlApi, isControlPath } from './control/control-api.js';
import { corsAllows, exposeSpecHeaders, isPreflight, preflightHeaders, responseHeaders } from './cors.js';
import { ApiError, errorBody, MissingFieldError } from './errors.js';
import { answerWithFaults, createFaultInjector } from './fault-injection.js';
import { injectedStatusError, NO_FAULTS, type FaultInjector, type FaultsMet } from './faults.js';
import { allowedMethods, headerValue, methodToServe, type ServiceRequest, type ServiceResponse } from './http.js';
import { httpDate } from './http-date.js';
import { Journal, journalPath, type JournalEntry } from './journal.js';
import { OptionsError, resolveOptions, type ServiceOptions } from './options.js';
import { consumeRateLimit, fillBucket, fullBucketHeaders } from './rate-limit.js';
import { createRouteTable, type Route } from './route-table.js';
import { Store, type Player } from './store.js';
import { isStoreInterruption, keptBy } from './kept-handle.js';
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

/** What one request has resolved so far; the headers travel with errors thrown later. */
interface Exchange {
  request: ServiceRequest;
  now: number;
  isGameOrigin: boolean;
  /** The request's Origin when CORS lets a page read the answer. */
  corsOrigin: string | undefined;
  headers: Record<string, string>;
  route?: Route;
  player?: Player | undefined;
  /** The category of the bucket a request without a route of its own (404, 405) was counted in. */
  countedAs?: RateLimitCategory;
  /** Injected faults this request met, when any. */
  faults?: FaultsMet;
  /** The body's fields the spec does not name, on a spec route that reads one. */
  unknownFields: string[];
}

const HEALTH_PATH = ROUTES.find((route) => route.id === 'health')!.path;

/** A body with a field the spec does not show, as a server that tags its answers would send it. */
function withRequestId(body: unknown): unknown {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? { ...body, requestId: crypto.randomUUID() } : body;
}

export function createService(serviceOptions: ServiceOptions): Service {
  const options = resolveOptions(serviceOptions);
  const { variants } = options;
  const store = new Store(options.bounds, options.storeEngine);
  const routes = createRouteTable(store, options);
  const journal = new Journal(options.journalSize);
  const faults = createFaultInjector(serviceOptions);
  const reseedPlayers = () => {
    store.clearPlayers();
    if (options.world !== undefined) loadWorld(store, options, options.world, options.clock.now());
  };
  const restored = options.storeEngine?.attach(store, options.clock) === true;
  try {
    if (!restored) reseedPlayers();
  } catch (error) {
    throw error instanceof ApiError ? new OptionsError(`world: ${error.message}`) : error;
  }
  const clock = isControllable(options.clock) ? options.clock : undefined;
  const control = options.control.enabled ? createControlApi({ store, options, journal, clock, reseedPlayers, faults }) : undefined;

  /** Counts the request in its bucket; a rate-limit fault fills the bucket first, so that the usual 429 answers. */
  function count(exchange: Exchange, category: RateLimitCategory, key: string): void {
    if (exchange.faults?.rateLimit === true) fillBucket(store, category, key, exchange.now, options);
    consumeRateLimit(store, category, key, exchange.now, exchange.headers, options);
  }

  /** Unauthenticated and unroutable requests are public reads by IP; game origins are exempt. */
  function countAsPublic(exchange: Exchange): void {
    exchange.countedAs = 'public';
    if (!exchange.isGameOrigin) count(exchange, 'public', exchange.request.ip);
  }

  /** A request without a valid token: 401, counted as a public read by IP unless that variant counts it nowhere. */
  function unauthorized(exchange: Exchange): ApiError {
    if (!variants.has('unauthorized-not-counted')) countAsPublic(exchange);
    return new ApiError(401, 'Missing, invalid or expired bearer token');
  }

  /** /health under that variant, for every method but a preflight (which CORS answers). */
  function answersAnyMethod(request: ServiceRequest): boolean {
    return variants.has('health-any-method') && request.path === HEALTH_PATH && request.method !== 'OPTIONS';
  }

  /** Routing, authentication and rate limiting: the route's handler, or a thrown ApiError. */
  function admit(exchange: Exchange): Route {
    const { request } = exchange;
    const byMethod = routes.find(request.path);
    if (byMethod === undefined) {
      if (variants.has('auth-before-routing') && authenticate(store, request, exchange.now) === undefined) throw unauthorized(exchange);
      countAsPublic(exchange);
      throw new ApiError(404, `No route for ${request.path}`);
    }
    const route = byMethod.get(methodToServe(request.method)) ?? (answersAnyMethod(request) ? byMethod.get('GET') : undefined);
    if (route === undefined) {
      const allowed = allowedMethods(byMethod.keys());
      countAsPublic(exchange);
      throw new ApiError(405, `${request.method} is not allowed on ${request.path}; use ${allowed.join(', ')}`, { allow: allowed.join(', ') });
    }
    exchange.route = route;
    if (route.spec.auth !== 'none') {
      exchange.player = authenticate(store, request, exchange.now);
      if (exchange.player === undefined) throw unauthorized(exchange);
    }
    const { scope, exemptForGameOrigins } = RATE_LIMITS[route.spec.category];
    if (!(exemptForGameOrigins && exchange.isGameOrigin)) {
      const key = scope === 'player' && exchange.player !== undefined ? exchange.player.id : request.ip;
      count(exchange, route.spec.category, key);
    } else if (variants.has('ratelimit-headers-on-exempt')) {
      Object.assign(exchange.headers, fullBucketHeaders(route.spec.category, exchange.now, options));
    }
    return route;
  }

  /** Headers that depend on the outcome: the points left on gameplay, and what a game client may read. */
  function finish(exchange: Exchange, status: number, body: unknown): ServiceResponse {
    const { headers, player } = exchange;
    if (exchange.route?.spec.category === 'gameplay' && player !== undefined) {
      Object.assign(headers, actionPointHeaders(player.actionPoints, options, options.clock.now()));
    }
    if (exchange.corsOrigin !== undefined) exposeSpecHeaders(headers);
    return { status, headers, body: variants.has('extra-body-fields') ? withRequestId(body) : body };
  }

  function errorResponse(exchange: Exchange, error: unknown): ServiceResponse {
    if (error instanceof ApiError) {
      Object.assign(exchange.headers, error.headers);
      const message = error instanceof MissingFieldError ? error.naming(exchange.unknownFields) : error.message;
      return finish(exchange, error.status, errorBody(message));
    }
    options.onError(error);
    return finish(exchange, 500, errorBody('Internal server error'));
  }

  async function answer(exchange: Exchange): Promise<ServiceResponse> {
    try {
      if (exchange.faults?.status !== undefined) throw injectedStatusError(exchange.faults);
      const route = admit(exchange);
      const body = route.handle({ request: exchange.request, now: exchange.now, player: exchange.player, unknownFields: exchange.unknownFields });
      // Most routes answer synchronously; those that hash a code, and handlers of the user, may return a promise.
      const answered: unknown = body instanceof Promise ? await body : body;
      return answered instanceof RouteReply ? finish(exchange, answered.status, answered.body) : finish(exchange, 200, answered);
    } catch (error) {
      if (isStoreInterruption(error)) throw error;
      return errorResponse(exchange, error);
    }
  }

  function record(exchange: Exchange, response: ServiceResponse, origin: string | undefined): void {
    const entry: JournalEntry = {
      atMs: exchange.now,
      method: exchange.request.method,
      path: journalPath(exchange.request.path),
      status: response.status,
      category: exchange.route?.spec.category ?? exchange.countedAs ?? null,
      route: exchange.route?.spec.id ?? null,
      unknownFields: exchange.unknownFields.length > 0 ? exchange.unknownFields : null,
      ip: exchange.request.ip,
      origin: origin ?? null,
      playerId: exchange.player?.id ?? null,
      fault: exchange.faults?.labels ?? null,
    };
    journal.add(entry);
    options.onRequest?.(entry);
  }

  /** The control API keeps its own origin rules; the API lets through the CORS origins and the game origins. */
  function allowedOrigin(path: string, origin: string | undefined): string | undefined {
    if (origin === undefined) return undefined;
    const allowed = control !== undefined && isControlPath(path) ? control.allowsOrigin(origin) : corsAllows(options.corsOrigins, options.gameOrigins, origin);
    return allowed ? origin : undefined;
  }

  /** Answered before authentication, routing, counting and faults, on every path; never counted. */
  function answerPreflight(request: ServiceRequest, corsOrigin: string | undefined, now: number): ServiceResponse {
    const response: ServiceResponse = { status: 204, headers: { ...preflightHeaders(request, corsOrigin), date: httpDate(now) }, body: undefined };
    if (control === undefined || !isControlPath(request.path)) {
      record({ request, now, isGameOrigin: false, corsOrigin, headers: response.headers, unknownFields: [] }, response, headerValue(request, 'origin'));
    }
    return response;
  }

  async function handle(request: ServiceRequest): Promise<ServiceResponse> {
    const now = options.clock.now();
    const origin = headerValue(request, 'origin');
    const corsOrigin = allowedOrigin(request.path, origin);
    if (isPreflight(request, corsOrigin)) return answerPreflight(request, corsOrigin, now);
    if (control !== undefined && isControlPath(request.path)) {
      try {
        const response = control.handle(request, now);
        // After the clock moved, Date reads the new time.
        response.headers['date'] = httpDate(options.clock.now());
        return response;
      } catch (error) {
        options.onError(error);
        return { status: 500, headers: { vary: 'Origin' }, body: errorBody('Internal server error') };
      }
    }
    const isGameOrigin = origin !== undefined && options.gameOrigins.has(origin);
    const exchange: Exchange = { request, now, isGameOrigin, corsOrigin, headers: responseHeaders(corsOrigin), unknownFields: [] };
    exchange.headers['date'] = httpDate(now);
    const met = faults.draw(request.method, request.path);
    if (met !== NO_FAULTS) exchange.faults = met;
    const response = met === NO_FAULTS ? await answer(exchange) : await answerWithFaults(met, () => answer(exchange));
    record(exchange, response, origin);
    return response;
  }

  const engine = options.storeEngine;
  return { handle: engine === undefined ? handle : keptBy(engine, handle, options.onStoreStatus), clock: options.clock, store, journal, variants, faults };
}
