import type { JSONSchemaType } from 'ajv';
import { readJsonObject, readOptionalJsonObject } from '../body.js';
import { ApiError } from '../errors.js';
import { faultRuleFromJson, faultRuleFromText } from '../fault-rules.js';
import { MAX_FAULT_SEED } from '../faults.js';
import { validator } from '../validation.js';
import type { ControlContext, ControlRoute } from './control-route.js';

const parseText = validator<{ text: string }>(
  {
    type: 'object',
    required: ['text'],
    additionalProperties: false,
    properties: { text: { type: 'string', minLength: 1, maxLength: 600 } },
  } satisfies JSONSchemaType<{ text: string }>,
  'body',
);

const parseSeed = validator<{ seed?: number }>(
  {
    type: 'object',
    additionalProperties: false,
    properties: { seed: { type: 'integer', minimum: 0, maximum: MAX_FAULT_SEED, nullable: true } },
  } satisfies JSONSchemaType<{ seed?: number }>,
  'body',
);

/** Fault rules at run time: list, add (JSON or the --fault text), remove, and replay their draws from a seed. */
export function faultRoutes(context: ControlContext): ControlRoute[] {
  const { faults } = context;
  return [
    {
      method: 'GET',
      pattern: '/__mock/faults',
      summary: 'the fault rules in force, in the order they draw, and the seed of their draws',
      handle: () => ({ seed: faults.seed, faults: faults.rules }),
    },
    {
      method: 'POST',
      pattern: '/__mock/faults',
      summary:
        '{kind, method?, path?, probability?, status?, ms?, minMs?, maxMs?} or {text: "GET /api/player 503@0.2"}: add a fault rule; answers it with its id',
      handle: ({ request }) => {
        const body = readJsonObject(request);
        const rule = 'text' in body ? faultRuleFromText(parseText(body).text, 'body /text') : faultRuleFromJson(body, 'body');
        return { fault: faults.add(rule) };
      },
    },
    {
      method: 'DELETE',
      pattern: '/__mock/faults',
      summary: 'remove every fault rule (those of the configuration and of scenarios too)',
      handle: () => ({ removed: faults.clear() }),
    },
    {
      method: 'DELETE',
      pattern: '/__mock/faults/:id',
      summary: 'remove one fault rule by its id',
      handle: ({ params }) => {
        if (!faults.remove(params['id']!)) throw new ApiError(404, `No fault rule ${params['id']}; GET /__mock/faults lists them`);
        return { removed: 1 };
      },
    },
    {
      method: 'POST',
      pattern: '/__mock/faults/seed',
      summary: '{seed?}: start the draws again from this seed (or the current one), to replay a run of faults',
      handle: ({ request }) => {
        const { seed = faults.seed } = parseSeed(readOptionalJsonObject(request));
        faults.reseed(seed);
        return { seed };
      },
    },
  ];
}
