import { Ajv, type ErrorObject, type JSONSchemaType } from 'ajv';
import { FAULT_RULE_SCHEMA } from '../core/fault-rules.js';
import { RECORDED_SESSION_SCHEMA } from '../spec/recorded-session.js';
import { didYouMean } from './did-you-mean.js';
import { camelCase } from './setting-declaration.js';
import { worldPlayerSchema } from '../core/world-schema.js';
import { pointer } from '../core/user-routes/template.js';

// allErrors: a file's every problem at once. verbose: errors carry their parent schema, so that an unknown
// key can be told the known ones.
const ajv = new Ajv({ allErrors: true, strict: true, verbose: true });

/** A validator for a file the CLI reads: every error, for `schemaProblems`. */
export function compileFileSchema<T>(schema: JSONSchemaType<T>) {
  return ajv.compile(schema);
}

function unknownKey(error: ErrorObject): string {
  const key = String(error.params['additionalProperty']);
  const known = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
  const near = known.includes(camelCase(key)) ? `; did you mean ${camelCase(key)}?` : didYouMean(key, known);
  const hint = near !== '' ? near : known.length > 0 ? ` (known: ${known.join(', ')})` : '';
  return `${error.instancePath}/${pointer(key)} is not a known key${hint}`;
}

/** The pattern a schema gives one of its properties: the words below follow the schemas rather than copy them. */
function patternOf(schema: object, property: string): string {
  const pattern = (schema as { properties: Record<string, { pattern?: string }> }).properties[property]?.pattern;
  if (pattern === undefined) throw new Error(`the schema has no pattern for ${property}`);
  return pattern;
}

/** The patterns of the files' schemas in words: a regular expression helps no one mend a file. */
const PATTERN_WORDS: ReadonlyMap<string, string> = new Map([
  [patternOf(worldPlayerSchema, 'email'), 'an email address'],
  [patternOf(worldPlayerSchema, 'token'), 'a UUID (such as 3f2c8a4e-9b1d-4c7e-8f00-5a6b7c8d9e0f)'],
  [patternOf(FAULT_RULE_SCHEMA, 'method'), 'an HTTP method (letters only) or *'],
  [patternOf(FAULT_RULE_SCHEMA, 'path'), 'a path beginning with /, or *'],
  [patternOf(RECORDED_SESSION_SCHEMA.items, 'path'), 'a path beginning with /'],
]);

function describeOne(error: ErrorObject): string {
  if (error.keyword === 'additionalProperties') return unknownKey(error);
  const words = error.keyword === 'pattern' ? PATTERN_WORDS.get(String(error.params['pattern'])) : undefined;
  if (words !== undefined) return `${error.instancePath} must be ${words}, not ${JSON.stringify(error.data)}`;
  const values = error.keyword === 'enum' ? (error.params['allowedValues'] as unknown[]).map(String) : undefined;
  const allowed = values === undefined ? '' : `: ${values.join(', ')}${didYouMean(String(error.data), values)}`;
  return `${error.instancePath || '(the top level)'} ${error.message ?? 'is invalid'}${allowed}`;
}

/** For a value that fits none of anyOf's forms: the deepest miss in it, or every type the value may have. */
function describeAnyOf(anyOf: ErrorObject, branches: readonly ErrorObject[]): string {
  const deepest = branches.reduce((best, error) => (error.instancePath.length > best.instancePath.length ? error : best), branches[0] ?? anyOf);
  if (deepest.instancePath !== anyOf.instancePath) return describeOne(deepest);
  const types = branches.filter((error) => error.keyword === 'type').map((error) => String(error.params['type']));
  return `${anyOf.instancePath} must be ${types.join(' or ')}`;
}

const within = (error: ErrorObject, anyOf: ErrorObject) =>
  error !== anyOf &&
  error.schemaPath.startsWith(`${anyOf.schemaPath}/`) &&
  (error.instancePath === anyOf.instancePath || error.instancePath.startsWith(`${anyOf.instancePath}/`));

/**
 * Each problem ajv found, once, as a person reads it (`/actionPoints/max must be >= 1`): the misses of an
 * anyOf's forms are said by the anyOf, and a failed `if` by the `then` it brought in.
 */
export function schemaProblems(errors: readonly ErrorObject[]): string[] {
  const anyOfs = errors.filter((error) => error.keyword === 'anyOf');
  const problems = errors.flatMap((error) => {
    if (error.keyword === 'if' || anyOfs.some((anyOf) => within(error, anyOf))) return [];
    return [
      error.keyword === 'anyOf'
        ? describeAnyOf(
            error,
            errors.filter((branch) => within(branch, error)),
          )
        : describeOne(error),
    ];
  });
  return [...new Set(problems)];
}

/** The top-level keys an error is about: what to leave out so that the rest can still be read. */
export function topLevelKey(error: ErrorObject): string {
  if (error.instancePath === '') return String(error.params['additionalProperty'] ?? '');
  return error.instancePath.split('/')[1]!.replaceAll('~1', '/').replaceAll('~0', '~');
}
