import { RATE_LIMITS } from '../spec/limits.js';
import { actionPointHeaders } from './action-points.js';
import { authenticate } from './auth.js';
import type { Clock } from './clock.js';
import { preflightHeaders, responseHeaders } from './cors.js';
import { ApiError, errorBody } from './errors.js';
import { headerValue, type ServiceRequest, type ServiceResponse } from './http.js';
import { resolveOptions, type ServiceOptions } from './options.js';
import { consumeRateLimit } from './rate-limit.js';
import { createRouteTable, type Route } from './route-table.js';
import { Store, type Player } from './store.js';

export interface Service {
  handle(request: ServiceRequest): Promise<ServiceResponse>;
  readonly clock: Clock;
  readonly store: Store;
}

export function createService(serviceOptions: ServiceOptions): Service {
  const options = resolveOptions(serviceOptions);
  const store = new Store(options.bounds);
  const routes = createRouteTable(store, options);

  async function respond(request: ServiceRequest, headers: Record<string, string>, isGameOrigin: boolean): Promise<ServiceResponse> {
    const now = options.clock.now();
    // Unauthenticated and unroutable requests are public reads by IP; game origins are exempt.
    const countAsPublic = () => {
      if (!isGameOrigin) consumeRateLimit(store, 'public', request.ip, now, headers);
    };
    const byMethod = routes.get(request.path);
    if (byMethod === undefined) {
      countAsPublic();
      throw new ApiError(404, `No route for ${request.path}`);
    }
    const allowed = [...byMethod.keys()];
    if (request.method === 'OPTIONS' && isGameOrigin) {
      return { status: 204, headers: { ...headers, ...preflightHeaders(headerValue(request, 'origin')!, allowed) }, body: undefined };
    }
    const route = byMethod.get(request.method);
    if (route === undefined) {
      countAsPublic();
      throw new ApiError(405, `${request.method} is not allowed on ${request.path}; use ${allowed.join(', ')}`, { allow: allowed.join(', ') });
    }
    const player = route.spec.auth === 'none' ? undefined : authenticate(store, request, now);
    if (route.spec.auth !== 'none' && player === undefined) {
      countAsPublic();
      throw new ApiError(401, 'Missing, invalid or expired bearer token');
    }
    const { scope, exemptForGameOrigins } = RATE_LIMITS[route.spec.category];
    if (!(exemptForGameOrigins && isGameOrigin)) {
      consumeRateLimit(store, route.spec.category, scope === 'player' && player !== undefined ? player.id : request.ip, now, headers);
    }
    return { status: 200, headers, body: await handleRoute(route, request, now, player, headers) };
  }

  async function handleRoute(route: Route, request: ServiceRequest, now: number, player: Player | undefined, headers: Record<string, string>) {
    try {
      return await route.handle({ request, now, player });
    } finally {
      // Gameplay responses report the points left, whatever the outcome.
      if (route.spec.category === 'gameplay' && player !== undefined) {
        Object.assign(headers, actionPointHeaders(player.actionPoints, options.actionPoints, options.clock.now()));
      }
    }
  }

  async function handle(request: ServiceRequest): Promise<ServiceResponse> {
    const origin = headerValue(request, 'origin');
    const isGameOrigin = origin !== undefined && options.gameOrigins.has(origin);
    const headers = responseHeaders(origin, isGameOrigin);
    try {
      return await respond(request, headers, isGameOrigin);
    } catch (error) {
      if (error instanceof ApiError) {
        return { status: error.status, headers: { ...headers, ...error.headers }, body: errorBody(error.message) };
      }
      options.onError(error);
      return { status: 500, headers, body: errorBody('Internal server error') };
    }
  }

  return { handle, clock: options.clock, store };
}
