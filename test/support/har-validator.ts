import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';

const require = createRequire(import.meta.url);

/** The HAR 1.2 schemas of har-schema (draft-06; they carry non-standard keywords such as `min`, hence not strict). */
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json'));
for (const schema of Object.values(require('har-schema') as Record<string, object>)) ajv.addSchema(schema);
const validateHar = ajv.getSchema('har.json#')!;

/** The errors of a document that is no valid HAR 1.2, or [] for one that is. */
export function harErrors(document: unknown): string[] {
  return validateHar(document) ? [] : (validateHar.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
}
