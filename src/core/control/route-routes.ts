import { CONTROL_ROUTES } from '../../spec/control-routes.js';
import type { RouteListing } from '../../spec/control-schemas.js';
import { categoryAuth, MOCK_ROUTES, ROUTES } from '../../spec/routes.js';
import { readJsonObject } from '../body.js';
import { ApiError } from '../errors.js';
import { validator } from '../validation.js';
import type { CompiledUserRoute } from '../user-routes/compile-routes.js';
import { ROUTE_SCHEMA, type RouteConfig } from '../user-routes/route-schema.js';
import { replacedByUser, routeSource } from '../user-routes/user-route.js';
import { type ControlContext, type ControlRoute, declaredRoute } from './control-route.js';

const parseRoute = validator<RouteConfig>(ROUTE_SCHEMA as never, 'body');

/** Action points a route spends on success; null outside the gameplay category. */
function listedCost(context: ControlContext, id: string, category: string): number | null {
  return category === 'gameplay' ? (context.options.actionCosts[id] ?? 0) : null;
}

/** Every route the API answers as the routes listing shows it; `id` is what the journal's `route` names. */
function routeListing(context: ControlContext): RouteListing[] {
  const { userRoutes } = context.options;
  const mock = MOCK_ROUTES.filter((route) => !replacedByUser(route, userRoutes));
  const builtIn = [...ROUTES.map((route) => ({ route, source: 'spec' })), ...mock.map((route) => ({ route, source: 'mock' }))].map(
    ({ route, source }): RouteListing => ({
      id: route.id,
      method: route.method,
      path: route.path,
      category: route.category,
      auth: route.auth,
      cost: listedCost(context, route.id, route.category),
      source,
    }),
  );
  return [...builtIn, ...userRoutes.map((route) => userRouteListing(context, route))];
}

function userRouteListing(context: ControlContext, { id, definition, category, answers, generalised }: CompiledUserRoute): RouteListing {
  return {
    id,
    method: definition.method,
    path: definition.path,
    category,
    auth: categoryAuth(category),
    cost: listedCost(context, id, category),
    source: routeSource(definition),
    ...(answers.length === 0 ? {} : { generalised: generalised.list() }),
  };
}

/** The routes listing: every route the API answers, the spec's and the user's, with its category and cost. */
export function routeRoutes(context: ControlContext): ControlRoute[] {
  return [
    declaredRoute('routes', () => ({ routes: routeListing(context) })),
    declaredRoute(
      'putRoute',
      ({ request }) => {
        const { module, handler, ...given } = parseRoute(readJsonObject(request));
        if (module !== undefined || handler !== undefined)
          throw new ApiError(
            400,
            `body /${module === undefined ? 'handler' : 'module'}: a handler's module is read from the config file (at start, or again with --watch); a route posted here answers from its templates`,
          );
        const { route, replaced } = context.routes.put(given, 'body ');
        return { route: userRouteListing(context, route), replaced };
      },
      { body: ROUTE_SCHEMA },
    ),
    declaredRoute('removeRoute', ({ params }) => {
      const id = params['id']!;
      const route = context.options.userRoutes.find((candidate) => candidate.id === id);
      if (route === undefined)
        throw new ApiError(
          404,
          `No route of your own ${JSON.stringify(id)}; the spec's and the mock's stay. ${CONTROL_ROUTES.routes.method} ${CONTROL_ROUTES.routes.pattern} lists them`,
        );
      // Listed as it was served: its cost goes with it.
      const removed = userRouteListing(context, route);
      context.routes.remove(id);
      return { removed };
    }),
  ];
}
