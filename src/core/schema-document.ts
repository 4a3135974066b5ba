/** ajv's `nullable: true` (an OpenAPI keyword) as standard JSON Schema: `type: [type, "null"]`. */
export function standardNullable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(standardNullable);
  if (typeof value !== 'object' || value === null) return value;
  const { nullable, ...rest } = value as Record<string, unknown>;
  const schema = Object.fromEntries(Object.entries(rest).map(([key, item]) => [key, standardNullable(item)]));
  if (nullable === true && typeof schema['type'] === 'string') schema['type'] = [schema['type'], 'null'];
  return schema;
}

/** The text of a published schema file: the schema as any draft-07 validator reads it, with what an editor shows. */
export function publishedSchema(schema: object, title: string, description: string): string {
  const document = { $schema: 'http://json-schema.org/draft-07/schema#', title, description, ...(standardNullable(schema) as object) };
  return `${JSON.stringify(document, null, 2)}\n`;
}
