import { readFileSync } from 'node:fs';
import { CliError } from './cli-error.js';
import { parseSwitch } from './flag-values.js';

function camelCase(flag: string): string {
  return flag.replace(/-(\w)/g, (_match, letter: string) => letter.toUpperCase());
}

/** A --config file: a JSON object whose keys are flags (either spelling), with on/off values checked. */
export function readConfigFile(path: string, switchFlags: readonly string[]): Record<string, unknown> {
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
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new CliError('GS_CONFIG', `--config ${path} must hold a JSON object whose keys are the flags, e.g. {"port": 8080}`);
  }
  const config = parsed as Record<string, unknown>;
  for (const flag of switchFlags) {
    for (const key of [flag, camelCase(flag)]) {
      if (key in config) config[key] = parseSwitch(flag, config[key], `--config ${path}`);
    }
  }
  return config;
}
