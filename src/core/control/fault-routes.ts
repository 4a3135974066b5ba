import type { JSONSchemaType } from 'ajv';
import { CONTROL_ROUTES } from '../../spec/control-routes.js';
import { readJsonObject, readOptionalJsonObject } from '../body.js';
import { ApiError } from '../errors.js';
import { FAULT_RULE_SCHEMA, faultRuleFromJson, faultRuleFromText } from '../fault-rules.js';
import { MAX_FAULT_SEED } from '../faults.js';
import { validator } from '../validation.js';
import { type ControlContext, type ControlRoute, declaredRoute } from './control-route.js';

const FAULT_TEXT_SCHEMA = {
  type: 'object',
  required: ['text'],
  additionalProperties: false,
  properties: { text: { type: 'string', minLength: 1, maxLength: 600 } },
} satisfies JSONSchemaType<{ text: string }>;
const parseText = validator<{ text: string }>(FAULT_TEXT_SCHEMA, 'body');

const SEED_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: { seed: { type: 'integer', minimum: 0, maximum: MAX_FAULT_SEED, nullable: true } },
} satisfies JSONSchemaType<{ seed?: number }>;
const parseSeed = validator<{ seed?: number }>(SEED_SCHEMA, 'body');

/** Fault rules at run time: list, add (JSON or the --fault text), remove, and replay their draws from a seed. */
export function faultRoutes(context: ControlContext): ControlRoute[] {
  const { faults } = context;
  return [
    declaredRoute('faults', () => ({ seed: faults.seed, faults: faults.rules })),
    declaredRoute(
      'addFault',
      ({ request }) => {
        const body = readJsonObject(request);
        const rule = 'text' in body ? faultRuleFromText(parseText(body).text, 'body /text') : faultRuleFromJson(body, 'body');
        return { fault: faults.add(rule) };
      },
      { body: { oneOf: [FAULT_RULE_SCHEMA, FAULT_TEXT_SCHEMA] } },
    ),
    declaredRoute('clearFaults', () => ({ removed: faults.clear() })),
    declaredRoute('removeFault', ({ params }) => {
      if (!faults.remove(params['id']!)) throw new ApiError(404, `No fault rule ${params['id']}; GET ${CONTROL_ROUTES.faults.pattern} lists them`);
      return { removed: 1 };
    }),
    declaredRoute(
      'reseedFaults',
      ({ request }) => {
        const { seed = faults.seed } = parseSeed(readOptionalJsonObject(request));
        faults.reseed(seed);
        return { seed };
      },
      { body: SEED_SCHEMA },
    ),
  ];
}
