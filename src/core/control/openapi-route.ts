import { openApiDocument, type OpenApiDocument } from '../../spec/openapi.js';
import { type ExampleAnswer, withExamples } from '../../spec/openapi-examples.js';
import { HANDLER_SUCCESS, type ShipPayloadReading } from '../../spec/openapi-schemas.js';
import type { Variants } from '../active-variants.js';
import type { CompiledUserRoute } from '../user-routes/compile-routes.js';
import { readRoute } from '../user-routes/route-reading.js';
import { routeSource } from '../user-routes/user-route.js';
import { standardNullable } from '../schema-document.js';
import { type ControlContext, type ControlInput, type ControlRoute, declaredRoute, routeSummary } from './control-route.js';
import { exampleAnswers } from './example-session.js';
import { configuredFields, routeAnswerBodies } from './template-schemas.js';

function shipPayloadReading(variants: Variants): ShipPayloadReading {
  if (variants.has('ship-payload-galaxy')) return 'galaxy';
  return variants.has('ship-payload-name') ? 'name' : 'any';
}

/** What a control route reads, as its document says it: ajv's `nullable` in the standard form (`type: [type, "null"]`). */
function documentedInput({ body, query }: ControlInput): ControlInput {
  return { ...(body === undefined ? {} : { body: standardNullable(body) as object }), ...(query === undefined ? {} : { query }) };
}

const KEPT_EXAMPLE_SETS = 8;

/** The control routes that read without parameters, each answering JSON in the envelope: those the examples' session calls. */
function controlReads(routes: readonly ControlRoute[]): string[] {
  return routes
    .filter((route) => route.method === 'GET' && !route.pattern.includes(':') && route.contentType === undefined && route.bare !== true)
    .map((route) => route.pattern);
}

/**
 * The OpenAPI route: this mock's API as an OpenAPI 3.1 document, the spec's routes with the
 * configured gameplay routes and every control route in `routes` (this one included), its examples the answers of a
 * short session on a fresh service of the same options (example-session.ts).
 */
export function openApiRoute(context: ControlContext, routes: readonly ControlRoute[]): ControlRoute {
  // The document of the variants played, the fault rules held and the user's routes when it was last asked for: the
  // control API changes all three at run time, and only the latest is kept.
  let latest: { key: string; userRoutes: unknown; document: OpenApiDocument } | undefined;
  // The examples of the last few variants played, for the routes of then: a document asked for again shows the same.
  const examples = new Map<string, { userRoutes: unknown; answers: Promise<ExampleAnswer[]> }>();
  const examplesOf = (variantsKey: string, userRoutes: readonly CompiledUserRoute[]) => {
    const kept = examples.get(variantsKey);
    if (kept?.userRoutes === userRoutes) return kept.answers;
    const answers = exampleAnswers(context.sampleService(), userRoutes, controlReads(routes));
    examples.delete(variantsKey);
    examples.set(variantsKey, { userRoutes, answers });
    if (examples.size > KEPT_EXAMPLE_SETS) examples.delete(examples.keys().next().value!);
    return answers;
  };
  // Built at the first request, once every control route is registered; none changes afterwards.
  return declaredRoute('openApi', async () => {
    const { names } = context.variants.selection;
    const { faults } = context;
    const variantsKey = [...names].sort().join(',');
    const key = `${variantsKey} ${faults.rules.map((rule) => rule.text).join(',')}`;
    const { userRoutes } = context.options;
    if (latest?.key !== key || latest.userRoutes !== userRoutes) {
      const { resourceTemplates } = context.options;
      const document = openApiDocument({
        version: context.options.version,
        configuredRoutes: userRoutes.map(({ definition, category }) => ({
          method: definition.method,
          path: definition.path,
          category,
          source: routeSource(definition),
          // A handler's route answers what its code does: only its shape is described, its fields left open.
          ...(definition.handler === undefined
            ? { ...readRoute(definition), answerBodies: routeAnswerBodies(definition, category) }
            : { answerBodies: { 200: HANDLER_SUCCESS } }),
        })),
        shipFields: configuredFields('ship', resourceTemplates.ship, userRoutes),
        playerFields: configuredFields('player', resourceTemplates.player, userRoutes),
        controlRoutes: routes.map((route) => ({ ...routeSummary(route), ...(route.input === undefined ? {} : { input: documentedInput(route.input) }) })),
        shipPayload: shipPayloadReading(context.variants.current),
        mockRoutes: true,
        variants: names,
        // A templated segment stands for any value: a rule on `/api/galaxy/*/sectors` matches `/api/galaxy/{galaxyId}/sectors`.
        faultStatuses: (method, path) => faults.injectableStatuses(method, path.replace(/\{[^}]+\}/g, 'x')),
      });
      latest = { key, userRoutes, document: withExamples(document, await examplesOf(variantsKey, userRoutes)) };
    }
    return latest.document;
  });
}
