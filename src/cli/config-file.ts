import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject } from 'ajv';
import { CliError } from './cli-error.js';
import { CONFIG_SWITCH_KEYS, configSchema, type MockConfig } from './config-schema.js';
import { parseSwitch } from './flag-values.js';

// verbose: errors carry their parent schema, so that an unknown key can be told the known ones.
const validate = new Ajv({ allErrors: false, strict: true, verbose: true }).compile(configSchema);

function camelCase(key: string): string {
  return key.replace(/-(\w)/g, (_match, letter: string) => letter.toUpperCase());
}

function unknownKey(error: ErrorObject): string {
  const key = String(error.params['additionalProperty']);
  const known = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
  const hint = known.includes(camelCase(key)) ? `; did you mean ${camelCase(key)}?` : known.length > 0 ? ` (known: ${known.join(', ')})` : '';
  return `${error.instancePath}/${key.replaceAll('~', '~0').replaceAll('/', '~1')} is not a known key${hint}`;
}

/** The one error worth reading: for a value that fits none of anyOf's forms, the deepest miss, or every type it may have. */
function describe(errors: readonly ErrorObject[]): string {
  const first = errors[0]!;
  const anyOf = errors.find((error) => error.keyword === 'anyOf');
  if (anyOf !== undefined) {
    const branches = errors.filter((error) => error !== anyOf);
    const deepest = branches.reduce((best, error) => (error.instancePath.length > best.instancePath.length ? error : best), first);
    if (deepest.instancePath === anyOf.instancePath) {
      const types = branches.filter((error) => error.keyword === 'type').map((error) => String(error.params['type']));
      return `${anyOf.instancePath} must be ${types.join(' or ')}`;
    }
    return describe([deepest]);
  }
  if (first.keyword === 'additionalProperties') return unknownKey(first);
  const allowed = first.keyword === 'enum' ? `: ${(first.params['allowedValues'] as unknown[]).join(', ')}` : '';
  return `${first.instancePath || '(the top level)'} ${first.message ?? 'is invalid'}${allowed}`;
}

/**
 * Checks a parsed config against the schema. `source` starts each message, e.g.
 * `--config mock.json: /actionPoints/max must be >= 1`.
 */
export function parseConfig(value: unknown, source: string): MockConfig {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CliError('GS_CONFIG', `${source} must hold a JSON object whose keys are the flags, e.g. {"port": 8080}`);
  }
  const config = { ...(value as Record<string, unknown>) };
  for (const key of CONFIG_SWITCH_KEYS) {
    if (config[key] !== undefined && config[key] !== null) config[key] = parseSwitch(config[key], `${source}: /${key}`);
  }
  if (!validate(config)) throw new CliError('GS_CONFIG', `${source}: ${describe(validate.errors ?? [])}`);
  return config;
}

/** Reads and checks a --config file. */
export function readConfigFile(path: string): MockConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError('GS_CONFIG', `cannot read --config ${path}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CliError('GS_CONFIG', `--config ${path} is not valid JSON: ${(error as Error).message}`);
  }
  return parseConfig(parsed, `--config ${path}`);
}
