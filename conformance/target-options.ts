import type { ConformanceConfig } from './config.js';
import { expandSourceIps } from './identities.js';
import { parseOtpSource } from './otp/index.js';
import { probeTarget } from './probe.js';

/** How to reach and drive a target: the flags `check` and `fuzz` share. */
export interface TargetOptions {
  baseUrl: string;
  /** control | log:FILE | command:CMD | prompt; default: the control API where the target has one. */
  otpSource?: string;
  gameOrigin?: string;
  unverifiedToken?: string;
  challengeToken?: string;
  /** `127.0.0.2-127.0.0.200` or a comma-separated list. */
  sourceIps?: string;
  forwardedFor?: boolean;
  waitOtpExpiry?: boolean;
  emailTemplate?: string;
  maxWaitSeconds?: number;
  numRuns?: number;
}

export const TARGET_DEFAULTS = { emailTemplate: 'conformance+{id}@example.com', maxWaitSeconds: 120, numRuns: 25 } as const;

/** The options a person gave, completed once into the configuration every check (and the fuzzer) reads. */
export async function resolveTargetConfig(options: TargetOptions, seed: number): Promise<ConformanceConfig> {
  const capabilities = await probeTarget(options.baseUrl);
  const otpSource = options.otpSource !== undefined ? parseOtpSource(options.otpSource) : capabilities?.outbox ? ({ kind: 'control' } as const) : null;
  return {
    baseUrl: options.baseUrl,
    seed,
    numRuns: options.numRuns ?? TARGET_DEFAULTS.numRuns,
    capabilities,
    otpSource,
    gameOrigin: options.gameOrigin ?? capabilities?.gameOrigins[0] ?? null,
    unverifiedToken: options.unverifiedToken ?? null,
    challengeToken: options.challengeToken ?? null,
    sourceIps: options.sourceIps === undefined ? [] : expandSourceIps(options.sourceIps),
    forwardedFor: options.forwardedFor ?? false,
    waitOtpExpiry: options.waitOtpExpiry ?? false,
    emailTemplate: options.emailTemplate ?? TARGET_DEFAULTS.emailTemplate,
    maxWaitSeconds: options.maxWaitSeconds ?? TARGET_DEFAULTS.maxWaitSeconds,
  };
}
