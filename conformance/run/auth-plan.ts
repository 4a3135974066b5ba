import { RATE_LIMITS, RATE_LIMIT_WINDOW_MS } from '../../src/spec/limits.js';
import type { ConformanceConfig } from './config.js';
import { counted } from '../report/counted.js';

/** Auth requests that one address may send in a window: the run is paced by it when every check shares that address. */
const PER_WINDOW = RATE_LIMITS.auth.limit;
/** The scheduler's pace for one address: a window and the margin it keeps past its end. */
const WINDOW_PERIOD_MS = RATE_LIMIT_WINDOW_MS + 1_000;
/** Everything but the auth windows (the checks' other requests, the OTP source): measured, with room to spare. */
const OTHER_WORK_MS = 40_000;

/** Runs of a property whose runs each cost an auth request: fewer where one address's budget paces the run. */
export const COSTLY_PROPERTY_RUNS = { default: 5, authPaced: 2 } as const;

/**
 * Whether one client address's auth budget (5 a minute) paces the whole run: real sign-ins in real time from
 * one address. The run then plans its auth requests (below) and spends fewer on random samples.
 */
export function isAuthPaced(config: ConformanceConfig): boolean {
  return (
    config.capabilities?.clockControl !== true &&
    config.capabilities?.players !== true &&
    config.sourceIps.length <= 1 &&
    config.clientIpHeader === null &&
    config.otpSource !== null
  );
}

export interface AuthPlanItem {
  what: string;
  requests: number;
}

export interface AuthPlan {
  items: AuthPlanItem[];
  /** Requests every selected check sends, whatever the windows. */
  requests: number;
  windows: number;
  expectedMs: number;
}

/**
 * The auth requests (register, verify-email) of a run whose checks all share one client address, which may send
 * 5 a minute: how many each check sends, how many windows that takes, and how long the run will be. Kept beside
 * the checks it counts; the run prints it up front and the requests it sent at the end.
 */
export function planAuth(config: ConformanceConfig): AuthPlan {
  const runs = Math.min(config.numRuns, COSTLY_PROPERTY_RUNS.authPaced);
  const items: AuthPlanItem[] = [
    {
      what: "sign-ins: the player VERIFY-OK signs in (REG-OK judges its registration; reads, envelopes, scope and exemptions use it), and a second player (AP-HEADERS, RL-PER-PLAYER, RL-429, RL-WINDOW) by verifying VERIFY-BOUND's first address",
      requests: 3,
    },
    { what: 'REG-MISSING: 7 bodies without a usable email, one of each kind', requests: 7 },
    { what: `REG-INVALID: ${counted(runs, 'malformed address', 'malformed addresses')}`, requests: runs },
    { what: 'REG-DISPOSABLE: a disposable domain', requests: 1 },
    { what: 'VERIFY-MISSING: 7 bodies without a usable email or code, one of each kind', requests: 7 },
    { what: "VERIFY-BOUND: two registrations and the second verified with the first one's code", requests: 3 },
    { what: "VERIFY-WRONG: 2 more wrong codes for VERIFY-BOUND's second address (the crossed code was the first)", requests: 2 },
    { what: 'VERIFY-REUSED: the used code again', requests: 1 },
  ];
  if (config.gameOrigin !== null) items.push({ what: 'RL-AUTH-IP: a game-origin registration between two counted requests', requests: 3 });
  if (config.waitOtpExpiry) items.push({ what: 'OTP-EXPIRY: two registrations and their codes, 15 minutes apart', requests: 4 });
  const requests = items.reduce((sum, item) => sum + item.requests, 0);
  const windows = Math.ceil(requests / PER_WINDOW);
  return { items, requests, windows, expectedMs: (windows - 1) * WINDOW_PERIOD_MS + OTHER_WORK_MS };
}

const minutes = (ms: number) => `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;

/** The plan as the run prints it before the first request. */
export function describeAuthPlan(plan: AuthPlan): string {
  return [
    `Auth plan (one client address, ${PER_WINDOW} auth requests a minute): ${counted(plan.requests, 'request')}:`,
    ...plan.items.map((item) => `  ${String(item.requests).padStart(2)}  ${item.what}`),
    `${counted(plan.windows, 'window')}: expect about ${minutes(plan.expectedMs)}.`,
  ].join('\n');
}

/** What the run sent against its plan, and how long it took. */
export function describeAuthAccount(plan: AuthPlan, sent: number, tookMs: number): string {
  const kept = sent <= plan.requests && tookMs <= plan.expectedMs;
  return `Auth requests sent: ${sent} (plan: ${plan.requests}); the run took ${minutes(tookMs)} (plan: about ${minutes(plan.expectedMs)})${kept ? '' : ': more than planned'}.`;
}
