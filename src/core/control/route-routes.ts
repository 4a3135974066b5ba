import { MOCK_ROUTES, ROUTES } from '../../spec/routes.js';
import { routeSource } from '../user-routes/user-route.js';
import { type ControlContext, type ControlRoute, declaredRoute } from './control-route.js';

/** Where a route comes from: the spec's table, the mock's own, or the user's (its config, or a handler's module and export). */
export type RouteSource = 'spec' | 'mock' | 'config' | 'handler' | (string & {});

/** A route as the routes listing shows it; `id` is what the journal's `route` names. */
export interface RouteListing {
  id: string;
  method: string;
  path: string;
  category: string;
  auth: string;
  /** Action points spent on success; null outside the gameplay category. */
  cost: number | null;
  source: RouteSource;
}

export function routeListing(context: ControlContext): RouteListing[] {
  const { actionCosts, userRoutes } = context.options;
  const cost = (id: string, category: string) => (category === 'gameplay' ? (actionCosts[id] ?? 0) : null);
  const replaced = new Set(userRoutes.map((route) => route.id));
  const mock = MOCK_ROUTES.filter((route) => !replaced.has(`${route.method} ${route.path}`));
  const builtIn = [...ROUTES.map((route) => ({ route, source: 'spec' })), ...mock.map((route) => ({ route, source: 'mock' }))].map(
    ({ route, source }): RouteListing => ({
      id: route.id,
      method: route.method,
      path: route.path,
      category: route.category,
      auth: route.auth,
      cost: cost(route.id, route.category),
      source,
    }),
  );
  const user = userRoutes.map(
    ({ id, definition, category }): RouteListing => ({
      id,
      method: definition.method,
      path: definition.path,
      category,
      auth: category === 'public' ? 'none' : 'bearer',
      cost: cost(id, category),
      source: routeSource(definition),
    }),
  );
  return [...builtIn, ...user];
}

/** The routes listing: every route the API answers, the spec's and the user's, with its category and cost. */
export function routeRoutes(context: ControlContext): ControlRoute[] {
  return [declaredRoute('routes', () => ({ routes: routeListing(context) }))];
}
