import type { StoreEngine } from '../core/store-engine.js';
import { StateFile } from '../stores/state-file.js';
import { StateFileError } from '../stores/state-file-schema.js';
import { CliError } from './cli-error.js';
import type { MockOptions } from './mock.js';

/** The engine the mock keeps its state with, what the banner calls it, and how to let it go. */
export interface OpenedStore {
  engine: StoreEngine | undefined;
  description: string;
  close(): void | Promise<void>;
}

const MEMORY: OpenedStore = { engine: undefined, description: 'memory (gone when the mock stops)', close: () => {} };

/** Opens the configured store before the mock listens: one that cannot work is a configuration error (exit 2). */
export function openStore(options: MockOptions, outboxSize: number): OpenedStore {
  if (options.state === undefined) return MEMORY;
  try {
    const stateFile = new StateFile(options.state, outboxSize);
    return { engine: stateFile, description: `state file ${options.state}`, close: () => stateFile.close() };
  } catch (error) {
    if (error instanceof StateFileError) throw new CliError('GS_CONFIG', `cannot start the mock: ${error.message}`);
    throw error;
  }
}
