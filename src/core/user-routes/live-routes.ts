import { ApiError } from '../errors.js';
import { actionCostsOf, type ResolvedOptions } from '../options.js';
import { compileUserRoutes, type CompiledUserRoute, type RouteProblem } from './compile-routes.js';
import type { UserRoute } from './user-route.js';

/** The user's routes while the mock runs: added, replaced and removed by the control API, or all at once by a reloaded file. */
export interface LiveRoutes {
  /** Adds `route`, or replaces the route of its method and path (`/a/:x` and `/a/:y` are one path); problems named from `at`. */
  put(route: UserRoute, at: string): { route: CompiledUserRoute; replaced: boolean };
  /** Removes the route of this id (`GET /api/news`), if the user has one. */
  remove(id: string): void;
  /** Replaces every route and the costs given for them (a config file read again): the problems, and nothing changed, when there are any. */
  replaceAll(routes: readonly UserRoute[], costs: Readonly<Record<string, number>>): RouteProblem[];
}

/** The 400 of a refused route, each problem at its JSON Pointer. */
export function routeProblemsError(problems: readonly RouteProblem[]): ApiError {
  return new ApiError(400, problems.map((problem) => `${problem.at} ${problem.message}`).join('; '));
}

/**
 * The routes of `config`, changed in place (its userRoutes and the action costs they give), so that every reader of the
 * configuration sees the change from the next request on; `changed` rebuilds what is derived from them (the router).
 */
export function liveRoutes(
  config: ResolvedOptions,
  initialCosts: Readonly<Record<string, number>> | undefined,
  changed: (routes: readonly CompiledUserRoute[]) => void,
): LiveRoutes {
  let givenCosts = initialCosts;
  const set = (routes: readonly CompiledUserRoute[]) => {
    config.userRoutes = routes;
    config.actionCosts = actionCostsOf(routes, givenCosts);
    changed(routes);
  };
  return {
    put(route, at) {
      const {
        routes: [compiled],
        problems,
      } = compileUserRoutes([{ route, at }]);
      if (compiled === undefined) throw routeProblemsError(problems);
      const samePath = (other: CompiledUserRoute) => other.definition.method === route.method && other.path.shape === compiled.path.shape;
      const index = config.userRoutes.findIndex(samePath);
      const routes = [...config.userRoutes];
      if (index === -1) routes.push(compiled);
      else routes[index] = compiled;
      set(routes);
      return { route: compiled, replaced: index !== -1 };
    },
    remove(id) {
      set(config.userRoutes.filter((route) => route.id !== id));
    },
    replaceAll(definitions, costs) {
      const { routes, problems } = compileUserRoutes(definitions.map((route, index) => ({ route, at: `routes/${index}` })));
      if (problems.length > 0) return problems;
      givenCosts = costs;
      set(routes);
      return problems;
    },
  };
}
