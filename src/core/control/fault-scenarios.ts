import type { JSONSchemaType } from 'ajv';
import { CONTROL_ROUTES } from '../../spec/control-routes.js';
import { faultRuleFromText } from '../fault-rules.js';
import type { ControlContext } from './control-route.js';
import type { Scenario } from './scenario.js';

const pathParameter = {
  type: 'object',
  required: [],
  additionalProperties: false,
  properties: { path: { type: 'string', minLength: 1, nullable: true } },
} as unknown as JSONSchemaType<Record<string, string>>;

/** Effects each scenario adds, on every method of `path` (default: every API route). */
const SCENARIO_EFFECTS: readonly { name: string; summary: string; effects: readonly string[] }[] = [
  {
    name: 'outage',
    summary: `{path?}: every API request (or those of path, a pattern) answers 503 until DELETE ${CONTROL_ROUTES.clearFaults.pattern}`,
    effects: ['503'],
  },
  { name: 'slow-network', summary: '{path?}: every API request waits 200 to 1500 ms before its answer', effects: ['latency:200-1500'] },
  {
    name: 'flaky',
    summary: '{path?}: requests fail now and then: 500, 502, 503 or a reset, each with a chance of 2%',
    effects: ['500@0.02', '502@0.02', '503@0.02', 'reset@0.02'],
  },
];

/** Named sets of fault rules; clearing the faults removes them with the others. */
export function faultScenarios(context: ControlContext): Scenario<Record<string, string>>[] {
  return SCENARIO_EFFECTS.map(({ name, summary, effects }) => ({
    name,
    summary,
    parameters: pathParameter,
    apply: ({ path = '*' }) => ({ faults: effects.map((effect) => context.faults.add(faultRuleFromText(`* ${path} ${effect}`, 'body /path'))) }),
  }));
}
