import { dirname, isAbsolute, join } from 'node:path';
import { CliError } from './cli-error.js';
import { parseStoreUrl } from './flag-values.js';
import { MOCK_DEFAULTS, type MockConfig, type MockFlags, type MockOptions } from './setting-forms.js';

/** Where the mock keeps its state (memory when neither a state file nor a store is given), and how many processes serve it. */
export type StoreChoice = Pick<MockOptions, 'state' | 'store' | 'storePrefix'> & { workers: number };

type StoreFlags = Pick<MockFlags, 'state' | 'store' | 'storePrefix' | 'workers'>;

function relativeTo(configPath: string | undefined, path: string): string {
  return configPath === undefined || isAbsolute(path) ? path : join(dirname(configPath), path);
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
  const storePrefix = flags.storePrefix ?? given(config.storePrefix) ?? MOCK_DEFAULTS.storePrefix;
  const workers = flags.workers ?? given(config.workers) ?? MOCK_DEFAULTS.workers;
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
