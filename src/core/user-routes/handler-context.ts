import { isJsonObject } from '../body.js';
import { ApiError } from '../errors.js';
import type { ServiceRequest } from '../http.js';
import type { CompiledUserRoute } from './compile-routes.js';
import { mockOwnFieldProblem, type ResourceKind } from './resource-templates.js';
import type { StagedRouteState } from './route-state.js';
import type { StagedResources } from './staged-resources.js';
import type { TemplateScope } from './template.js';
import { isRouteStatus, RouteReply, type RoutePlayer, type RouteHandlerContext, type RouteShip } from './user-route.js';

/** A handler's mistake, not the client's: answered 500 and told to onError with the route named. */
class RouteHandlerError extends Error {
  constructor(route: CompiledUserRoute, why: string) {
    super(`route ${route.id}${route.definition.source === undefined ? '' : ` (${route.definition.source})`}: ${why}`);
    this.name = 'RouteHandlerError';
  }
}

function checkedStatus(route: CompiledUserRoute, status: number, lowest: number): number {
  if (!isRouteStatus(status, lowest)) throw new RouteHandlerError(route, `status ${status} is not from ${lowest} to 599`);
  return status;
}

/**
 * The view a handler reads of the caller's ship or player, with `update`: the fields are staged, and shown on this view
 * at once; `update` is not one of its fields (not enumerable), so spreading the view copies fields only.
 */
function resourceAccess(route: CompiledUserRoute, kind: ResourceKind, view: Readonly<Record<string, unknown>>, resources: StagedResources) {
  const access = { ...view };
  Object.defineProperty(access, 'update', {
    enumerable: false,
    value(fields: unknown) {
      if (!isJsonObject(fields)) throw new RouteHandlerError(route, `context.${kind}.update takes an object of fields`);
      const problem = mockOwnFieldProblem(kind, Object.keys(fields));
      if (problem !== undefined) throw new RouteHandlerError(route, `context.${kind}.update ${problem}`);
      resources.update(kind, fields);
      Object.assign(access, fields);
    },
  });
  return access;
}

/**
 * The context a handler is called with, and the reading of what it returns: an object (its fields added to
 * `{success: true}`), nothing, or `context.reply(status, body)`. Points it spends are counted here and spent
 * by the caller once the answer is a success; `spendCheck` refuses (403) as soon as they are not there.
 */
export function handlerContext(
  route: CompiledUserRoute,
  request: ServiceRequest,
  scope: TemplateScope,
  state: StagedRouteState,
  resources: StagedResources,
  spendCheck: (extra: number) => void,
) {
  let extraPoints = 0;
  const context: RouteHandlerContext = {
    method: request.method,
    path: request.path,
    params: scope.params,
    query: scope.query,
    body: scope.body,
    player: scope.player === undefined ? undefined : (resourceAccess(route, 'player', scope.player, resources) as RoutePlayer),
    ship: scope.ship === undefined ? undefined : (resourceAccess(route, 'ship', scope.ship, resources) as RouteShip),
    state,
    now: new Date(scope.now),
    spendActionPoints(points) {
      if (route.category !== 'gameplay')
        throw new RouteHandlerError(route, `spends action points, but it is a ${route.category} route; only gameplay routes spend them`);
      if (!Number.isInteger(points) || points < 0) throw new RouteHandlerError(route, `spendActionPoints(${points}): points are a whole number, 0 or more`);
      spendCheck(extraPoints + points);
      extraPoints += points;
    },
    error: (status, message) => new ApiError(checkedStatus(route, status, 400), message),
    reply: (status, body) => new RouteReply(checkedStatus(route, status, 200), body),
  };
  const outcome = (value: unknown) => {
    if (value instanceof RouteReply) {
      if (!isJsonObject(value.body)) throw new RouteHandlerError(route, 'context.reply takes a JSON object as its body');
      return { status: value.status, fields: value.body, extraPoints };
    }
    if (value !== undefined && !isJsonObject(value))
      throw new RouteHandlerError(route, `returned ${typeof value}; a handler returns an object of fields, nothing, or context.reply(status, body)`);
    return { status: 200, fields: value ?? {}, extraPoints };
  };
  return { context, outcome };
}
