/** `game-service-harness/fetch`: the service for Deno, Bun and workers. No node:* imports, no msw. */
import './node-version-guard.js';
export * from './common-exports.js';
export { createFetchHandler, type FetchHandler, type FetchHostOptions } from './hosts/fetch.js';
export { createService } from './core/service.js';
export { createMockControl } from './hosts/mock-control.js';
export { OptionsError } from './core/options.js';
export type { ServiceRequest, ServiceResponse } from './core/http.js';
