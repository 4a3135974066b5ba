import type { ActionPointRules } from './action-points.js';
import type { BotCheck } from './bot-check.js';
import { systemClock, type Clock } from './clock.js';
import type { StoreBounds } from './store.js';

export interface OtpDelivery {
  email: string;
  code: string;
  issuedAt: number;
  expiresAt: number;
}

/** The console line a person reads the code from. */
export function formatOtpLine(delivery: OtpDelivery): string {
  return `OTP for ${delivery.email}: ${delivery.code} (expires ${new Date(delivery.expiresAt).toISOString()})`;
}

/** What a caller may set; everything left out takes the default documented in the README. */
export interface ServiceOptions {
  /** The version /health reports (the package's version). */
  version: string;
  clock?: Clock;
  /** Origins whose requests are exempt from the gameplay, read and public buckets (exact match). */
  gameOrigins?: readonly string[];
  botCheck?: BotCheck;
  /** Wrong codes after which the pending code is void; 0 disables the limit. */
  maxWrongOtpAttempts?: number;
  actionPoints?: Partial<ActionPointRules>;
  /** Action-point cost of each gameplay route, by route id. */
  actionCosts?: Readonly<Record<string, number>>;
  bounds?: Partial<StoreBounds>;
  /** Where codes are delivered, the mock's stand-in for email; by default a console line. */
  onOtp?: (delivery: OtpDelivery) => void;
  /** Told of every unexpected exception (answered with a 500). */
  onError?: (error: unknown) => void;
}

export interface ResolvedOptions {
  version: string;
  clock: Clock;
  gameOrigins: ReadonlySet<string>;
  botCheck: BotCheck;
  maxWrongOtpAttempts: number;
  actionPoints: ActionPointRules;
  actionCosts: Readonly<Record<string, number>>;
  bounds: StoreBounds;
  onOtp: (delivery: OtpDelivery) => void;
  onError: (error: unknown) => void;
}

export const DEFAULT_ACTION_POINTS: ActionPointRules = { start: 60, max: 60, refillIntervalMs: 60_000 };
export const DEFAULT_ACTION_COSTS: Readonly<Record<string, number>> = { createShip: 0 };
export const DEFAULT_BOUNDS: StoreBounds = { maxPendingCodes: 100_000, maxBuckets: 200_000 };
export const DEFAULT_MAX_WRONG_OTP_ATTEMPTS = 5;

/** Partial public options become complete internal ones, once, at creation. */
export function resolveOptions(options: ServiceOptions): ResolvedOptions {
  return {
    version: options.version,
    clock: options.clock ?? systemClock,
    gameOrigins: new Set(options.gameOrigins ?? []),
    botCheck: options.botCheck ?? { mode: 'off' },
    maxWrongOtpAttempts: options.maxWrongOtpAttempts ?? DEFAULT_MAX_WRONG_OTP_ATTEMPTS,
    actionPoints: { ...DEFAULT_ACTION_POINTS, ...options.actionPoints },
    actionCosts: { ...DEFAULT_ACTION_COSTS, ...options.actionCosts },
    bounds: { ...DEFAULT_BOUNDS, ...options.bounds },
    onOtp: options.onOtp ?? ((delivery) => console.log(formatOtpLine(delivery))),
    onError: options.onError ?? ((error) => console.error('Unexpected error while handling a request:', error)),
  };
}
