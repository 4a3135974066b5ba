import { OPENAPI_PATH, openApiDocument, type OpenApiDocument } from '../../spec/openapi.js';
import { routeSummary, type ControlContext, type ControlRoute } from './control-route.js';

/**
 * GET /__mock/openapi.json: this mock's API as an OpenAPI 3.1 document, the spec's routes with the
 * configured gameplay routes and every control route in `routes` (this one included).
 */
export function openApiRoute(context: ControlContext, routes: readonly ControlRoute[]): ControlRoute {
  let document: OpenApiDocument | undefined;
  return {
    method: 'GET',
    pattern: OPENAPI_PATH,
    summary: 'this API as an OpenAPI 3.1 document, served as it is (no success envelope)',
    bare: true,
    // Built at the first request, once every control route is registered; none changes afterwards.
    handle: () =>
      (document ??= openApiDocument({
        version: context.options.version,
        configuredRoutes: context.options.gameplayRoutes,
        controlRoutes: routes.map(routeSummary),
      })),
  };
}
