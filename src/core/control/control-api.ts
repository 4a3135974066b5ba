import { responseHeaders } from '../cors.js';
import { ApiError, errorBody } from '../errors.js';
import { allowedMethods, headerValue, methodToServe, type ServiceRequest, type ServiceResponse } from '../http.js';
import { ControlContent, declaredRoute, routeSummary, type ControlContext, type ControlRoute } from './control-route.js';
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

import { CONTROL_PREFIX } from '../../spec/control-routes.js';

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;
const LOOPBACK_HOST = /^(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])(:\d+)?$/i;
const LOOPBACK_ORIGIN = /^https?:\/\/(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])(:\d+)?$/i;

interface CompiledRoute {
  route: ControlRoute;
  segments: readonly string[];
}

function match(segments: readonly string[], pattern: readonly string[]): Record<string, string> | undefined {
  if (segments.length !== pattern.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, part] of pattern.entries()) {
    const segment = segments[index]!;
    if (part.startsWith(':')) {
      try {
        params[part.slice(1)] = decodeURIComponent(segment);
      } catch {
        return undefined;
      }
    } else if (part !== segment) {
      return undefined;
    }
  }
  return params;
}

export function isControlPath(path: string): boolean {
  return path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`);
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
      variants: context.options.variants.selection.names,
      routes: routes.map(routeSummary),
    })),
  );
  const compiled: CompiledRoute[] = routes.map((route) => ({ route, segments: route.pattern.split('/') }));

  /**
   * Loopback only, by transport peer (never a forwarded header). A web page open in the developer's browser
   * is on loopback too, so a browser's request must also name a loopback Host (against DNS rebinding) and
   * come from a loopback or game origin (against cross-site requests that reset the mock or load a world).
   */
  /** A page of this origin may call the control API: loopback pages and game clients, or any once the API is public. */
  function allowsOrigin(origin: string): boolean {
    return context.options.control.public || LOOPBACK_ORIGIN.test(origin) || context.options.gameOrigins.has(origin);
  }

  function assertAllowed(request: ServiceRequest): void {
    if (context.options.control.public || request.peer === undefined) return;
    const refuse = (why: string) => {
      throw new ApiError(403, `The control API ${why}; start the mock with --control-public to open it`);
    };
    if (!LOOPBACK.test(request.peer)) refuse('answers loopback clients only');
    const host = headerValue(request, 'host');
    if (host !== undefined && !LOOPBACK_HOST.test(host)) refuse(`answers only requests addressed to a loopback name, not ${host}`);
    const origin = headerValue(request, 'origin');
    if (origin !== undefined && !allowsOrigin(origin)) {
      refuse(`refuses browser requests from ${origin}, which is neither loopback nor a game origin`);
    }
  }

  function handle(request: ServiceRequest, now: number): ServiceResponse {
    const origin = headerValue(request, 'origin');
    const headers: Record<string, string> = {
      ...responseHeaders(origin !== undefined && allowsOrigin(origin) ? origin : undefined),
      'cache-control': 'no-store',
    };
    try {
      assertAllowed(request);
      const segments = request.path.split('/');
      const candidates = compiled.flatMap((entry) => {
        const params = match(segments, entry.segments);
        return params === undefined ? [] : [{ route: entry.route, params }];
      });
      if (candidates.length === 0) throw new ApiError(404, `No control route for ${request.path}; GET ${CONTROL_PREFIX}/capabilities lists them`);
      const chosen = candidates.find((candidate) => candidate.route.method === methodToServe(request.method));
      if (chosen === undefined) {
        const allowed = allowedMethods(candidates.map((candidate) => candidate.route.method)).join(', ');
        throw new ApiError(405, `${request.method} is not allowed on ${request.path}; use ${allowed}`, { allow: allowed });
      }
      const body = chosen.route.handle({ request, now, params: chosen.params });
      if (body instanceof ControlContent)
        return { status: 200, headers: { ...headers, ...body.headers }, body: undefined, ...(body.content === undefined ? {} : { content: body.content }) };
      return { status: 200, headers, body: chosen.route.bare === true ? body : { success: true, ...body } };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return { status: error.status, headers: { ...headers, ...error.headers }, body: errorBody(error.message) };
    }
  }

  return { handle, routes, allowsOrigin };
}
