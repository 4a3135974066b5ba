import { dirname, isAbsolute, join } from 'node:path';
import { CliError } from './cli-error.js';
import type { MockConfig } from './config-schema.js';

/** Where the mock keeps its state, and how many processes serve it. */
export interface StoreChoice {
  /** An SQLite state file (`--state`); memory when neither this nor `store` is given. */
  state?: string;
  /** A shared store, `redis://HOST:PORT[/DB]` (Redis 7 or Valkey). */
  store?: string;
  /** Prefix of every key on the shared store, so that several mocks can share one server. */
  storePrefix?: string;
  workers: number;
}

export interface StoreFlags {
  state?: string | undefined;
  store?: string | undefined;
  storePrefix?: string | undefined;
  workers?: number | undefined;
}

export const DEFAULT_STORE_PREFIX = 'game-service:';

function relativeTo(configPath: string | undefined, path: string): string {
  return configPath === undefined || isAbsolute(path) ? path : join(dirname(configPath), path);
}

/** A `redis://` or `rediss://` URL with a host, an optional port and an optional database number; `subject` names where it was given. */
export function parseStoreUrl(value: string, subject = '--store'): string {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  const valid =
    url !== undefined &&
    (url.protocol === 'redis:' || url.protocol === 'rediss:') &&
    url.hostname !== '' &&
    /^(\/\d*)?$/.test(url.pathname) &&
    url.search === '' &&
    url.hash === '';
  if (!valid)
    throw new CliError('GS_USAGE', `${subject} ${JSON.stringify(value)} is not a Redis URL; expected redis://HOST:PORT[/DB], e.g. redis://127.0.0.1:6379/0`);
  return value;
}

const given = <T>(value: T | null | undefined): T | undefined => (value === null ? undefined : value);

/** Flag ?? config file ?? memory and one process; combinations that cannot work are usage errors (exit 2). */
export function mergeStoreOptions(flags: StoreFlags, config: MockConfig, configPath: string | undefined): StoreChoice {
  const stateInFile = given(config.state);
  const state = flags.state ?? (stateInFile === undefined ? undefined : relativeTo(configPath, stateInFile));
  const storeInFile = given(config.store);
  const store =
    flags.store !== undefined
      ? parseStoreUrl(flags.store)
      : storeInFile === undefined
        ? undefined
        : parseStoreUrl(storeInFile, `--config ${configPath}: /store`);
  const storePrefix = flags.storePrefix ?? given(config.storePrefix) ?? DEFAULT_STORE_PREFIX;
  const workers = flags.workers ?? given(config.workers) ?? 1;
  if (workers < 1) throw new CliError('GS_USAGE', `--workers ${workers}: expected at least 1 process`);
  if (state !== undefined && store !== undefined)
    throw new CliError('GS_USAGE', '--state and --store exclude each other: a state file for one process, Redis for many');
  if (workers > 1 && state !== undefined) {
    throw new CliError(
      'GS_USAGE',
      `--workers ${workers} with --state: a state file belongs to one process; share state between processes with --store redis://HOST:PORT`,
    );
  }
  if (workers > 1 && store === undefined) {
    throw new CliError('GS_USAGE', `--workers ${workers} needs --store redis://HOST:PORT: in-memory state cannot be shared between processes`);
  }
  if (store !== undefined) return { store, storePrefix, workers };
  return { ...(state === undefined ? {} : { state }), workers };
}
