/** Pieces of the config file's schema. A key may be null (JSONSchemaType makes optional keys nullable), which counts as left out. */

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
