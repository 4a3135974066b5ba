// The one type of ajv's that checks the schema of a single property; ajv's main entry exports it only as part of JSONSchemaType.
import type { PropertiesSchema } from 'ajv/dist/types/json-schema.js';

/** Pieces of the config file's schema. A key may be null (JSONSchemaType makes optional keys nullable), which counts as left out. */

/** The JSON Schema of a config-file key whose value is a `Value`, checked as JSONSchemaType checks a property of an object. */
export type KeySchema<Value> = PropertiesSchema<{ key?: Value }>['key'];

export const count = (minimum = 0) => ({ type: 'integer', minimum, nullable: true }) as const;

export const onOff = { type: 'boolean', nullable: true } as const;

/** An object of templates, any keys. */
export const fieldsTemplate = { type: 'object', nullable: true, required: [], additionalProperties: true } as const;

/** A list given as one string (its entries separated by commas) or as an array; `oneString` says what the string holds. */
export function stringOrList(oneString: string) {
  return {
    anyOf: [
      { type: 'string', description: oneString },
      { type: 'array', items: { type: 'string' } },
    ],
  } as const;
}
