/**
 * `game-service-harness`: the service, its hosts for Node and fetch runtimes, and the standalone mock.
 * msw users import `game-service-harness/msw` (Node tests) or `/browser` (dev builds) instead, so that
 * this entry point works without msw installed.
 */
import './node-version-guard.js';
import type { RunningMock } from './standalone/mock.js';
import type { MockOptions } from './standalone/setting-forms.js';
export * from './common-exports.js';
export { createService } from './core/service.js';
export type { ServiceRequest, ServiceResponse } from './core/http.js';
import type { ServiceOptions } from './core/options.js';
export { formatOtpLine, OptionsError, type ControlOptions } from './core/options.js';
export { systemClock } from './core/clock.js';
export type { ActionPointRules } from './core/action-points.js';
export type { BotCheck } from './core/bot-check.js';
export type { JournalEntry } from './core/journal.js';
export { createNodeServer, type NodeHostOptions } from './hosts/node-http.js';
export { createFetchHandler, type FetchHandler, type FetchHostOptions } from './hosts/fetch.js';
export { createMockControl } from './hosts/mock-control.js';
export type { MockOptions, RunningMock };

/**
 * The standalone mock, as `game-service mock` starts it. Its module loads on the first call: its stores import
 * node:sqlite, which an older Node.js rejects while loading this entry, before the version guard above could speak.
 */
export async function startMock(options: MockOptions): Promise<RunningMock> {
  const standalone = await import('./standalone/mock.js');
  return standalone.startMock(options);
}

/**
 * A `game-service mock --config` file as service options, route modules loaded relative to the file: the same
 * routes for msw in Node as for the standalone server (`createMswMock({baseUrl, ...(await loadMockConfig(path))})`).
 */
export async function loadMockConfig(path: string): Promise<ServiceOptions> {
  const loader = await import('./standalone/load-mock-config.js');
  return loader.loadMockConfig(path);
}
