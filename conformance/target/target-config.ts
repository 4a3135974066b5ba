import type { OtpSourceSpec } from '../otp/otp-source.js';

/** What the target told its control API's capabilities route, or null when it has no control API. */
export interface Capabilities {
  clockControl: boolean;
  outbox: boolean;
  players: boolean;
  buckets: boolean;
  scenarios: readonly string[];
  gameOrigins: readonly string[];
}

/** Everything a check needs to know about the run; plain data, handed to the run's test module by vitest. */
export interface ConformanceConfig {
  baseUrl: string;
  seed: number;
  /** Property runs per fast-check property that costs no rate-limited request. */
  numRuns: number;
  capabilities: Capabilities | null;
  otpSource: OtpSourceSpec | null;
  /** A configured game origin of the target; enables the exemption checks. */
  gameOrigin: string | null;
  /** The bot-check token the target accepts, added to registrations (targets with the check on). */
  challengeToken: string | null;
  /** A token of a player whose email is not verified; enables ship gating without a control API. */
  unverifiedToken: string | null;
  /** Local addresses to send from, one client identity each (loopback or lab targets). */
  sourceIps: readonly string[];
  /**
   * The header that names the client's address, to stand for many clients (targets that trust it):
   * X-Forwarded-For, CF-Connecting-IP, X-Real-IP, True-Client-IP, Forwarded…; null sends none.
   */
  clientIpHeader: string | null;
  /** The body of POST /api/player/ship (its payload is not shown in the spec). */
  shipPayload: unknown;
  /** Wait out a real 15-minute code lifetime when the target's clock cannot be moved. */
  waitOtpExpiry: boolean;
  /** Address template for sign-ins, `{id}` replaced by a unique id. */
  emailTemplate: string;
  /** Most seconds a check waits for a rate-limit window in real time before it gives up. */
  maxWait: number;
  /** Most seconds one answer may take, headers and body together; a check may wait four times that in all. */
  requestTimeout: number;
}
