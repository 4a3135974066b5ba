/** What every entry point of the package exports alike: the control calls, the clocks, the options' types, user routes. No node:* imports. */
export { MockControlError, type MockControl } from './hosts/mock-control.js';
export type {
  ClockState,
  ControlPlayer,
  OutboxMessage,
  RateLimitBucket,
  ResetPart,
  RouteListing,
  SeededPlayer,
  TemplateRouteConfig,
  VariantsState,
} from './hosts/mock-control.js';
export { ManualClock, VirtualClock, type Clock, type ControllableClock, type VirtualClockOptions } from './core/clock.js';
export type { OtpDelivery, ServiceOptions } from './core/options.js';
export type { Service } from './core/service.js';
export type { World, WorldPlayer } from './core/world.js';
export {
  RouteReply,
  MAX_ROUTE_STATE_BYTES,
  type RouteHandler,
  type RouteHandlerContext,
  type RoutePlayer,
  type RouteStateAccess,
  type UserRoute,
  type UserRouteCategory,
  type UserRouteMethod,
} from './core/user-routes/user-route.js';
