import { CONTROL_PREFIX } from '../../spec/control-routes.js';
import { LOOPBACK_HOST, LOOPBACK_ORIGIN, LOOPBACK_PEER } from '../../spec/loopback.js';
import { type Answer, NO_HEADERS } from '../answer.js';
import { ApiError } from '../errors.js';
import { headerValue, type ServiceRequest } from '../http.js';
import { methodNotAllowed, Router, targetFor } from '../router.js';
import { ControlContent, type ControlContext, type ControlRequest, type ControlRoute, declaredRoute, routeSummary } from './control-route.js';
import { bucketRoutes } from './bucket-routes.js';
import { clockRoutes } from './clock-routes.js';
import { dashboardRoutes } from './dashboard-routes.js';
import { faultRoutes } from './fault-routes.js';
import { journalRoutes } from './journal-routes.js';
import { openApiRoute } from './openapi-route.js';
import { playerRoutes } from './player-routes.js';
import { routeRoutes } from './route-routes.js';
import { createScenarios, scenarioRoutes } from './scenario-routes.js';
import { stateRoutes } from './state-routes.js';
import { variantRoutes } from './variant-routes.js';
import { VARIANT_NAMES } from '../variant-choice.js';

/** A path of the control API as its router files it: under the prefix it is mounted on. */
function mounted(path: string): string {
  return path.slice(CONTROL_PREFIX.length);
}

const ROUTES_PREFIX = `${CONTROL_PREFIX}/routes/`;

/** The control API's 404: it points at the list of its routes, and at the encoding of a route's id where one was half encoded. */
function controlRouteNotFound(path: string): ApiError {
  const halfEncodedRouteId = path.startsWith(ROUTES_PREFIX) && path.slice(ROUTES_PREFIX.length).includes('/');
  const hint = halfEncodedRouteId
    ? `; a route's id is one path segment: encode it whole, its slashes too (encodeURIComponent), e.g. ${ROUTES_PREFIX}${encodeURIComponent('GET /api/news')}`
    : '';
  return new ApiError(404, `No control route for ${path}${hint}; GET ${CONTROL_PREFIX}/capabilities lists them`);
}

/**
 * The mock-only control plane under CONTROL_PREFIX: never rate limited, never journaled, and answering
 * loopback callers only (by transport peer, never by a forwarded header) unless made public.
 */
export function createControlApi(context: ControlContext) {
  const scenarios = createScenarios(context);
  const routes: ControlRoute[] = [
    ...stateRoutes(context),
    ...bucketRoutes(context),
    ...clockRoutes(context),
    ...playerRoutes(context),
    ...scenarioRoutes(scenarios),
    ...variantRoutes(context),
    ...journalRoutes(context),
    ...faultRoutes(context),
    ...routeRoutes(context),
    ...dashboardRoutes(),
  ];
  routes.push(openApiRoute(context, routes));
  routes.unshift(
    declaredRoute('capabilities', () => ({
      service: 'game-service-harness',
      version: context.options.version,
      capabilities: {
        clockControl: context.clock !== undefined,
        outbox: true,
        players: true,
        buckets: true,
        journal: true,
        journalCount: true,
        faults: true,
        worlds: true,
        scenarios: scenarios.map((scenario) => scenario.name),
        variants: VARIANT_NAMES,
      },
      gameOrigins: [...context.options.gameOrigins],
      /** The variants played now (the variants route says more). */
      variants: context.variants.selection.names,
      routes: routes.map(routeSummary),
    })),
  );

  /** A page of this origin may call the control API: loopback pages and game clients, or any once the API is public. */
  function allowsOrigin(origin: string): boolean {
    return context.options.control.public || LOOPBACK_ORIGIN.test(origin) || context.options.gameOrigins.has(origin);
  }

  /**
   * Loopback only, by transport peer (never a forwarded header). A web page open in the developer's browser
   * is on loopback too, so a browser's request must also name a loopback Host (against DNS rebinding) and
   * come from a loopback or game origin (against cross-site requests that reset the mock or load a world).
   */
  function assertAllowed(request: ServiceRequest): void {
    if (context.options.control.public || request.peer === undefined) return;
    const refuse = (why: string) => {
      throw new ApiError(403, `The control API ${why}; start the mock with --control-public to open it`);
    };
    if (!LOOPBACK_PEER.test(request.peer)) refuse('answers loopback clients only');
    const host = headerValue(request, 'host');
    if (host !== undefined && !LOOPBACK_HOST.test(host)) refuse(`answers only requests addressed to a loopback name, not ${host}`);
    const origin = headerValue(request, 'origin');
    if (origin !== undefined && !allowsOrigin(origin)) {
      refuse(`refuses browser requests from ${origin}, which is neither loopback nor a game origin`);
    }
  }

  /** A control route's answer: `success: true` added unless the route is `bare`, or content of another type. */
  function answerRoute(route: ControlRoute, call: ControlRequest): Answer | Promise<Answer> {
    const body = route.handle(call);
    return body instanceof Promise ? body.then((resolved) => routeAnswer(route, resolved)) : routeAnswer(route, body);
  }

  function routeAnswer(route: ControlRoute, body: Record<string, unknown> | ControlContent): Answer {
    if (body instanceof ControlContent) {
      return { status: 200, headers: body.headers, body: undefined, ...(body.content === undefined ? {} : { content: body.content }) };
    }
    return { status: 200, headers: NO_HEADERS, body: route.bare === true ? body : { success: true, ...body } };
  }

  const router = new Router(routes.map((route) => ({ method: route.method, path: mounted(route.pattern), target: route, emptyParams: true })));

  /** The answer to a request under the prefix, found by the control API's own router; or a thrown ApiError. */
  function answer(request: ServiceRequest, now: number): Answer | Promise<Answer> {
    assertAllowed(request);
    const { method, path } = request;
    const match = router.match(mounted(path));
    if (match === undefined) throw controlRouteNotFound(path);
    const route = targetFor(match, method);
    if (route === undefined) throw methodNotAllowed(method, path, match);
    return answerRoute(route, { request, now, params: match.params(route) });
  }

  return { allowsOrigin, answer };
}
