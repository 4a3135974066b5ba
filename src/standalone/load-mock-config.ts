import type { ServiceOptions } from '../core/options.js';
import { settingsServiceOptions } from './mock.js';
import { resolveMockOptions } from './mock-options.js';

/**
 * A `--config` file as service options, its route modules loaded (relative to the file) and its world read:
 * what `game-service mock --config FILE` serves, for a host of your own (`createMswMock({baseUrl, ...options})`).
 * The keys of the standalone server alone (port, host, state, store, workers, logging) are not service options
 * and are left out. Throws every problem of the file at once, as the CLI prints them.
 */
export async function loadMockConfig(path: string): Promise<ServiceOptions> {
  return settingsServiceOptions(await resolveMockOptions({ config: path }));
}
