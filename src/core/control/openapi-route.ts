import { openApiDocument, type OpenApiDocument } from '../../spec/openapi.js';
import type { ShipPayloadReading } from '../../spec/openapi-schemas.js';
import type { Variants } from '../active-variants.js';
import { readRoute } from '../user-routes/route-reading.js';
import { routeSource } from '../user-routes/user-route.js';
import { standardNullable } from '../schema-document.js';
import { type ControlContext, type ControlInput, type ControlRoute, declaredRoute, routeSummary } from './control-route.js';

function shipPayloadReading(variants: Variants): ShipPayloadReading {
  if (variants.has('ship-payload-galaxy')) return 'galaxy';
  return variants.has('ship-payload-name') ? 'name' : 'any';
}

/** What a control route reads, as its document says it: ajv's `nullable` in the standard form (`type: [type, "null"]`). */
function documentedInput({ body, query }: ControlInput): ControlInput {
  return { ...(body === undefined ? {} : { body: standardNullable(body) as object }), ...(query === undefined ? {} : { query }) };
}

/**
 * The OpenAPI route: this mock's API as an OpenAPI 3.1 document, the spec's routes with the
 * configured gameplay routes and every control route in `routes` (this one included).
 */
export function openApiRoute(context: ControlContext, routes: readonly ControlRoute[]): ControlRoute {
  // The document of the variants played, the fault rules held and the user's routes when it was last asked for: the
  // control API changes all three at run time, and only the latest is kept.
  let latest: { key: string; userRoutes: unknown; document: OpenApiDocument } | undefined;
  // Built at the first request, once every control route is registered; none changes afterwards.
  return declaredRoute('openApi', () => {
    const { names } = context.variants.selection;
    const { faults } = context;
    const key = `${[...names].sort().join(',')} ${faults.rules.map((rule) => rule.text).join(',')}`;
    const { userRoutes } = context.options;
    if (latest?.key !== key || latest.userRoutes !== userRoutes) {
      const document = openApiDocument({
        version: context.options.version,
        configuredRoutes: userRoutes.map(({ definition, category }) => ({
          method: definition.method,
          path: definition.path,
          category,
          source: routeSource(definition),
          // A handler's route answers what its code does: only its shape is described.
          ...(definition.handler === undefined ? readRoute(definition) : {}),
        })),
        controlRoutes: routes.map((route) => ({ ...routeSummary(route), ...(route.input === undefined ? {} : { input: documentedInput(route.input) }) })),
        shipPayload: shipPayloadReading(context.variants.current),
        mockRoutes: true,
        variants: names,
        // A templated segment stands for any value: a rule on `/api/galaxy/*/sectors` matches `/api/galaxy/{galaxyId}/sectors`.
        faultStatuses: (method, path) => faults.injectableStatuses(method, path.replace(/\{[^}]+\}/g, 'x')),
      });
      latest = { key, userRoutes, document };
    }
    return latest.document;
  });
}
