import type { JSONSchemaType } from 'ajv';

/** A named shortcut to a state of the spec: its parameters as a schema, and what applying it does. */
export interface Scenario<P> {
  name: string;
  summary: string;
  parameters: JSONSchemaType<P>;
  apply(params: P, now: number): Record<string, unknown>;
}
