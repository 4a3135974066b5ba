import { categoryAuth } from '../../spec/routes.js';
import type { Route } from '../route-definition.js';
import { answerUserRoute } from './answer-route.js';
import type { CompiledUserRoute } from './compile-routes.js';
import { routeSource } from './user-route.js';

/** The route a user's definition becomes: its category decides its token and bucket, as a spec route's does. */
export function userRoute(compiled: CompiledUserRoute): Route {
  const { definition, category } = compiled;
  const spec = {
    id: compiled.id,
    method: definition.method,
    path: definition.path,
    category,
    auth: categoryAuth(category),
    source: routeSource(definition),
  } as const;
  return { spec, handle: answerUserRoute(compiled) };
}
