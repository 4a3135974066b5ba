import { Ajv, type ErrorObject, type JSONSchemaType } from 'ajv';
import { ApiError } from './errors.js';

const ajv = new Ajv({ allErrors: false, strict: true, useDefaults: false });

function describe(error: ErrorObject, subject: string): string {
  const at = error.instancePath === '' ? subject : `${subject} ${error.instancePath}`;
  const extra = error.keyword === 'additionalProperties' ? ` (${String(error.params['additionalProperty'])})` : '';
  const allowed = error.keyword === 'enum' ? `: ${(error.params['allowedValues'] as unknown[]).join(', ')}` : '';
  return `${at} ${error.message ?? 'is invalid'}${extra}${allowed}`;
}

/**
 * A checker for one JSON Schema: the value typed, or a 400 naming the offending path after the subject
 * (`body /points must be >= 0`); callers that know better name the subject themselves (a file name).
 */
export function validator<T>(schema: JSONSchemaType<T>, defaultSubject: string): (value: unknown, subject?: string) => T {
  // Compiled on first use: every command of the CLI loads these modules, most never validate a control body.
  let validate: (((value: unknown) => value is T) & { errors?: ErrorObject[] | null }) | undefined;
  return (value, subject = defaultSubject) => {
    validate ??= ajv.compile(schema);
    if (validate(value)) return value;
    throw new ApiError(400, describe(validate.errors![0]!, subject));
  };
}
