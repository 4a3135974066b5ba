import { dirname, isAbsolute, join } from 'node:path';
import { CliError } from './cli-error.js';
import type { MockConfig } from './config-schema.js';

/** Where the mock keeps its state, and how many processes serve it. */
export interface StoreChoice {
  /** An SQLite state file (`--state`); memory when neither this nor `store` is given. */
  state?: string;
  workers: number;
}

export interface StoreFlags {
  state?: string | undefined;
  workers?: number | undefined;
}

function relativeTo(configPath: string | undefined, path: string): string {
  return configPath === undefined || isAbsolute(path) ? path : join(dirname(configPath), path);
}

/** Flag ?? config file ?? memory and one process; combinations that cannot work are usage errors (exit 2). */
export function mergeStoreOptions(flags: StoreFlags, config: MockConfig, configPath: string | undefined): StoreChoice {
  const state = flags.state ?? (config.state === undefined || config.state === null ? undefined : relativeTo(configPath, config.state));
  const workers = flags.workers ?? config.workers ?? 1;
  if (workers < 1) throw new CliError('GS_USAGE', `--workers ${workers}: expected at least 1 process`);
  if (workers > 1 && state !== undefined) {
    throw new CliError('GS_USAGE', `--workers ${workers} with --state: a state file belongs to one process; share state between processes with --store redis://HOST:PORT`);
  }
  if (workers > 1) {
    throw new CliError('GS_USAGE', `--workers ${workers} needs --store redis://HOST:PORT: in-memory state cannot be shared between processes`);
  }
  return { ...(state === undefined ? {} : { state }), workers };
}
