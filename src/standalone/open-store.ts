import type { JournalEntry } from '../core/journal.js';
import type { Service } from '../core/service.js';
import type { StoreEngine } from '../core/store-engine.js';
import { RedisStore } from '../stores/redis-store.js';
import { StateFile } from '../stores/state-file.js';
import { StateFileError } from '../stores/state-file-schema.js';
import { CliError } from './cli-error.js';
import type { MockOptions, StartOptions } from './setting-forms.js';

/** The engine the mock keeps its state with, what the banner calls it, and how to let it go. */
export interface OpenedStore {
  engine: StoreEngine | undefined;
  description: string;
  /** Told of every answered request, for a shared journal. */
  onRequest?: (entry: JournalEntry) => void;
  /** Once the service exists: share its journal and clock, and keep the world it seeded. */
  started(service: Service): Promise<void>;
  close(): void | Promise<void>;
}

export interface StoreSizes {
  outboxSize: number;
  journalSize: number;
}

const MEMORY: OpenedStore = { engine: undefined, description: 'memory (gone when the mock stops)', started: async () => {}, close: () => {} };

function openStateFile(path: string, sizes: StoreSizes): OpenedStore {
  try {
    const stateFile = new StateFile(path, sizes.outboxSize);
    return { engine: stateFile, description: `state file ${path}`, started: async () => stateFile.afterRequest(), close: () => stateFile.close() };
  } catch (error) {
    if (error instanceof StateFileError) throw new CliError('GS_CONFIG', `cannot start the mock: ${error.message}`);
    throw error;
  }
}

async function connectRedis(url: string, prefix: string, sizes: StoreSizes): Promise<OpenedStore> {
  let redis: RedisStore;
  try {
    redis = await RedisStore.connect(url, prefix, sizes);
  } catch (error) {
    throw new CliError('GS_CONFIG', `cannot start the mock: cannot reach the shared store ${url}: ${(error as Error).message}`);
  }
  const unreachable = (error: unknown) => new CliError('GS_CONFIG', `cannot start the mock: the shared store ${url} failed: ${(error as Error).message}`);
  return {
    engine: redis,
    description: `shared store ${url} (keys under ${JSON.stringify(prefix)})`,
    onRequest: (entry) => redis.journaled(entry),
    started: async (service) => {
      redis.shareJournal(service.journal);
      await redis.followClock().catch((error: unknown) => Promise.reject(unreachable(error)));
      await redis.afterRequest().catch((error: unknown) => Promise.reject(unreachable(error)));
    },
    close: () => redis.close(),
  };
}

/** Fails (exit 2) when the shared store cannot be reached, before any worker starts. */
export async function probeStore(options: MockOptions): Promise<void> {
  if (options.store === undefined) return;
  try {
    await RedisStore.probe(options.store);
  } catch (error) {
    throw new CliError('GS_CONFIG', `cannot start the mock: cannot reach the shared store ${options.store}: ${(error as Error).message}`);
  }
}

/** Opens the configured store before the mock listens: one that cannot work is a configuration error (exit 2). */
export async function openStore(options: StartOptions, sizes: StoreSizes): Promise<OpenedStore> {
  if (options.store !== undefined) return connectRedis(options.store, options.storePrefix, sizes);
  if (options.state !== undefined) return openStateFile(options.state, sizes);
  return MEMORY;
}
