/** `game-service-harness/fetch`: the service for Deno, Bun and workers. No node:* imports, no msw. */
import './node-version-guard.js';
export { createFetchHandler, type FetchHandler, type FetchHostOptions } from './hosts/fetch.js';
export { createService, type Service } from './core/service.js';
export { createMockControl, MockControlError, type MockControl } from './hosts/mock-control.js';
export type { ClockState, ControlPlayer, OutboxMessage, RateLimitBucket, ResetPart, SeededPlayer, VariantsState } from './hosts/mock-control.js';
export { ManualClock, VirtualClock, type Clock, type ControllableClock, type VirtualClockOptions } from './core/clock.js';
export { OptionsError, type OtpDelivery, type ServiceOptions } from './core/options.js';
export type { ServiceRequest, ServiceResponse } from './core/http.js';
export type { World, WorldPlayer } from './core/world.js';
