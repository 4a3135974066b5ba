import type { ResolvedOptions } from '../options.js';
import type { Route, RouteTable } from '../route-table.js';
import { answerUserRoute } from './answer-route.js';
import type { CompiledUserRoute } from './compile-routes.js';
import type { RoutePath } from './route-path.js';
import { routeSource } from './user-route.js';

/** A user's route as the table holds it, with its path's matcher. */
export interface UserRouteEntry {
  route: Route;
  path: RoutePath;
}

/** The route a user's definition becomes: its category decides its token and bucket, as a spec route's does. */
export function userRouteEntry(compiled: CompiledUserRoute, options: ResolvedOptions): UserRouteEntry {
  const { definition, category } = compiled;
  const spec = {
    id: compiled.id,
    method: definition.method,
    path: definition.path,
    category,
    auth: category === 'public' ? 'none' : 'bearer',
    source: routeSource(definition),
  } as const;
  return { route: { spec, handle: answerUserRoute(compiled, options) }, path: compiled.path };
}

interface PatternGroup {
  path: RoutePath;
  byMethod: Map<string, Route>;
}

function literalSegments(path: RoutePath): number {
  return path.shape.split('/').filter((segment) => segment !== ':').length;
}

/** Adds each route of `from` whose method `to` does not have: the first route for a method stays. */
function addMissing(to: Map<string, Route>, from: ReadonlyMap<string, Route>): void {
  for (const [method, route] of from) if (!to.has(method)) to.set(method, route);
}

/**
 * The table of the service: built-in routes and the user's routes without parameters by exact path, the
 * others as patterns, the one with more literal segments first. A path that is also a pattern's gets the
 * pattern's other methods at build time, so that it stays one lookup.
 */
export function buildRouteTable(builtIn: readonly Route[], userRoutes: readonly UserRouteEntry[]): RouteTable {
  const exact = new Map<string, Map<string, Route>>();
  const groups = new Map<string, PatternGroup>();
  const byPath = (path: string) => exact.get(path) ?? exact.set(path, new Map()).get(path)!;
  for (const route of builtIn) byPath(route.spec.path).set(route.spec.method, route);
  for (const { route, path } of userRoutes) {
    if (path.params.length === 0) {
      byPath(route.spec.path).set(route.spec.method, route);
      continue;
    }
    const group = groups.get(path.shape) ?? { path, byMethod: new Map<string, Route>() };
    group.byMethod.set(route.spec.method, route);
    groups.set(path.shape, group);
  }
  const patterns = [...groups.values()].sort((a, b) => literalSegments(b.path) - literalSegments(a.path));
  for (const [path, byMethod] of exact) for (const group of patterns) if (group.path.match(path) !== undefined) addMissing(byMethod, group.byMethod);
  return {
    find(path) {
      const found = exact.get(path);
      if (found !== undefined || patterns.length === 0) return found;
      let merged: Map<string, Route> | undefined;
      for (const group of patterns) {
        if (group.path.match(path) === undefined) continue;
        merged ??= new Map();
        addMissing(merged, group.byMethod);
      }
      return merged;
    },
    routes: [...builtIn, ...userRoutes.map((entry) => entry.route)],
  };
}
