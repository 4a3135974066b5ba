import { readFileSync } from 'node:fs';
import { CliError } from './cli-error.js';
import { configSchema } from './config-schema.js';
import { parseSwitch } from './flag-values.js';
import type { ProblemList } from './problems.js';
import { compileFileSchema, schemaProblems, topLevelKey } from './schema-problems.js';
import { FILE_SETTINGS, type MockConfig } from './setting-forms.js';

const validate = compileFileSchema(configSchema);

/** Keys whose value is on or off: a file may also spell them 1/0, yes/no, on/off, like the environment. */
const SWITCH_KEYS = FILE_SETTINGS.filter(({ setting }) => setting.flag?.kind === 'boolean').map(({ name }) => name);

/**
 * Checks a parsed config against the schema, noting every problem in `problems`, each message starting with
 * `source` (`--config mock.json: /actionPoints/max must be >= 1`). Returns the keys that are valid, so that
 * what depends on them can be checked too: every key is optional, and none depends on another.
 */
export function parseConfig(value: unknown, source: string, problems: ProblemList): MockConfig {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.add(new CliError('GS_CONFIG', `${source} must hold a JSON object whose keys are the flags, e.g. {"port": 8080}`));
    return {};
  }
  const config: Record<string, unknown> = { ...value };
  for (const key of SWITCH_KEYS) {
    if (config[key] === undefined || config[key] === null) continue;
    try {
      config[key] = parseSwitch(config[key], `${source}: /${key}`);
    } catch (error) {
      problems.add(new CliError('GS_CONFIG', (error as Error).message));
      delete config[key];
    }
  }
  if (validate(config)) return config;
  const errors = validate.errors ?? [];
  for (const problem of schemaProblems(errors)) problems.add(new CliError('GS_CONFIG', `${source}: ${problem}`));
  for (const error of errors) delete config[topLevelKey(error)];
  return config as MockConfig;
}

/** Reads and checks a --config file, noting its problems; undefined when it cannot be read as JSON at all. */
export function readConfigFile(path: string, problems: ProblemList): MockConfig | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    problems.add(new CliError('GS_CONFIG', `cannot read --config ${path}: ${(error as Error).message}`));
    return undefined;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    problems.add(new CliError('GS_CONFIG', `--config ${path} is not valid JSON: ${(error as Error).message}`));
    return undefined;
  }
  return parseConfig(parsed, `--config ${path}`, problems);
}
