/**
 * `game-service-harness`: the service, its hosts for Node and fetch runtimes, and the standalone mock.
 * msw users import `game-service-harness/msw` (Node tests) or `/browser` (dev builds) instead, so that
 * this entry point works without msw installed.
 */
export { createService, type Service } from './core/service.js';
export type { ServiceRequest, ServiceResponse } from './core/http.js';
export { formatOtpLine, OptionsError, type ControlOptions, type GameplayRoute, type OtpDelivery, type ServiceOptions } from './core/options.js';
export { ManualClock, systemClock, VirtualClock, type Clock, type ControllableClock, type VirtualClockOptions } from './core/clock.js';
export type { ActionPointRules } from './core/action-points.js';
export type { BotCheck } from './core/bot-check.js';
export type { JournalEntry } from './core/journal.js';
export type { World, WorldPlayer } from './core/world.js';
export { createNodeServer, type NodeHostOptions } from './hosts/node-http.js';
export { createFetchHandler, type FetchHandler, type FetchHostOptions } from './hosts/fetch.js';
export { createMockControl, MockControlError, type MockControl } from './hosts/mock-control.js';
export type { ClockState, ControlPlayer, OutboxMessage, RateLimitBucket, ResetPart, SeededPlayer, VariantsState } from './hosts/mock-control.js';
export { startMock, type MockOptions, type RunningMock } from './cli/mock.js';
