import { RATE_LIMITS, RATE_LIMIT_WINDOW_MS } from '../src/spec/limits.js';
import type { ConformanceConfig } from './config.js';

/** Auth requests that one address may send in a window: the run is paced by it when every check shares that address. */
const PER_WINDOW = RATE_LIMITS.auth.limit;
/** The scheduler's pace for one address: a window and the margin it keeps past its end. */
const WINDOW_PERIOD_MS = RATE_LIMIT_WINDOW_MS + 1_000;
/** Everything but the auth windows (the checks' other requests, the OTP source): measured, with room to spare. */
const OTHER_WORK_MS = 40_000;
/** Properties that cost an auth request per run are capped (see propertyOptions). */
const COSTLY_PROPERTY_RUNS = 5;

/** The annotation that carries the number of auth requests a run sent from its checks to the main process. */
export const AUTH_REQUESTS_ANNOTATION = 'auth-requests';

export interface AuthPlanItem {
  what: string;
  requests: number;
}

export interface AuthPlan {
  items: AuthPlanItem[];
  /** Requests every selected check sends, whatever the windows. */
  requests: number;
  /** At most this many more fill the last open window before ENV-ERROR's 429 (what is left of it). */
  fill: number;
  windows: { from: number; to: number };
  expectedMs: { from: number; to: number };
}

/**
 * The auth requests (register, verify-email) of a run whose checks all share one client address, which may send
 * 5 a minute: how many each check sends, how many windows that takes, and how long the run will be. Kept beside
 * the checks it counts; the run prints it up front and the requests it sent at the end.
 */
export function planAuth(config: ConformanceConfig): AuthPlan {
  const runs = Math.min(config.numRuns, COSTLY_PROPERTY_RUNS);
  const items: AuthPlanItem[] = [
    { what: 'sign-ins: the player VERIFY-OK signs in (REG-OK judges its registration; reads, envelopes, scope and exemptions use it) and a second player (AP-HEADERS, RL-PER-PLAYER, RL-429, RL-WINDOW)', requests: 4 },
    { what: 'REG-MISSING: 10 bodies without a usable email', requests: 10 },
    { what: `REG-INVALID: ${runs} malformed addresses`, requests: runs },
    { what: 'REG-DISPOSABLE: 2 disposable domains', requests: 2 },
    { what: 'VERIFY-MISSING: 10 bodies without a usable email or code', requests: 10 },
    { what: 'VERIFY-WRONG: a registration and 6 wrong codes', requests: 7 },
    { what: 'VERIFY-BOUND: two registrations, a crossed code, and the re-registration it observes', requests: 5 },
    { what: 'VERIFY-REUSED: the used code again', requests: 1 },
    { what: `ENV-ERROR: ${runs} malformed bodies`, requests: runs },
    { what: "ENV-ERROR: the 429 that ends a spent auth budget (answered 429, so it opens no window)", requests: 1 },
  ];
  if (config.gameOrigin !== null) items.push({ what: 'RL-AUTH-IP: a game-origin registration between two counted requests', requests: 3 });
  if (config.waitOtpExpiry) items.push({ what: 'OTP-EXPIRY: two registrations and their codes, 15 minutes apart', requests: 4 });
  const requests = items.reduce((sum, item) => sum + item.requests, 0);
  // The 429 itself opens no window; the requests before it fill the one it ends.
  const counted = requests - 1;
  const fill = PER_WINDOW - 1;
  const windows = { from: Math.ceil(counted / PER_WINDOW), to: Math.ceil((counted + fill) / PER_WINDOW) };
  const expectedMs = { from: (windows.from - 1) * WINDOW_PERIOD_MS + OTHER_WORK_MS, to: (windows.to - 1) * WINDOW_PERIOD_MS + OTHER_WORK_MS };
  return { items, requests, fill, windows, expectedMs };
}

const minutes = (ms: number) => `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;

/** The plan as the run prints it before the first request. */
export function describeAuthPlan(plan: AuthPlan): string {
  return [
    `Auth plan (one client address, ${PER_WINDOW} auth requests a minute): ${plan.requests} requests, and up to ${plan.fill} more to fill the window ENV-ERROR's 429 ends:`,
    ...plan.items.map((item) => `  ${String(item.requests).padStart(2)}  ${item.what}`),
    `${plan.windows.from}–${plan.windows.to} windows: expect ${minutes(plan.expectedMs.from)} to ${minutes(plan.expectedMs.to)}.`,
  ].join('\n');
}

/** What the run sent against its plan, and how long it took. */
export function describeAuthAccount(plan: AuthPlan, sent: number, tookMs: number): string {
  const kept = sent <= plan.requests + plan.fill && tookMs <= plan.expectedMs.to;
  return `Auth requests sent: ${sent} (plan: ${plan.requests}, up to ${plan.requests + plan.fill}); the run took ${minutes(tookMs)} (plan: at most ${minutes(plan.expectedMs.to)})${kept ? '' : ': more than planned'}.`;
}
