import type { ConformanceConfig } from './target-config.js';
import { expandSourceIps } from './identities.js';
import { checkOtpSource, parseOtpSource } from '../otp/index.js';
import { probeTarget } from './probe.js';
import { TARGET_DEFAULTS } from './target-defaults.js';

/** How to reach and drive a target: the flags `check` and `fuzz` share. */
export interface TargetOptions {
  baseUrl: string;
  /** control | log:FILE | command:CMD | prompt; default: the control API where the target has one. */
  otpSource?: string;
  /** The target's configured game origin, or its origins (the flag's list): the first is the one the exemption checks use. */
  gameOrigin?: string | readonly string[];
  unverifiedToken?: string;
  challengeToken?: string;
  /** `127.0.0.2-127.0.0.200` or a comma-separated list. */
  sourceIps?: string;
  /** Stand for many clients with X-Forwarded-For: the same as `clientIpHeader: 'X-Forwarded-For'`. */
  forwardedFor?: boolean;
  /** Stand for many clients with this header (CF-Connecting-IP, X-Real-IP, True-Client-IP, Forwarded, …). */
  clientIpHeader?: string;
  /** The body of POST /api/player/ship, as JSON text (the spec does not show the payload). */
  shipPayload?: string;
  waitOtpExpiry?: boolean;
  emailTemplate?: string;
  /** Most seconds to wait for a rate-limit window in real time. */
  maxWait?: number;
  /** Most seconds one answer may take, headers and body together. */
  requestTimeout?: number;
  numRuns?: number;
  /** Leave the run's requests in a control-API target's journal (by default the run takes them out at its end). */
  keepJournal?: boolean;
}

export { TARGET_DEFAULTS };

/** A flag value that cannot work: a usage error (exit 2), found before anything is started or sent. */
export class TargetOptionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetOptionError';
  }
}

/** A header name as HTTP allows it (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function clientIpHeaderOf(options: TargetOptions): string | null {
  const { clientIpHeader, forwardedFor } = options;
  if (clientIpHeader === undefined) return forwardedFor === true ? 'X-Forwarded-For' : null;
  if (!HEADER_NAME.test(clientIpHeader)) throw new TargetOptionError(`--client-ip-header ${JSON.stringify(clientIpHeader)} is not a header name`);
  if (forwardedFor === true && clientIpHeader.toLowerCase() !== 'x-forwarded-for') {
    throw new TargetOptionError(`--forwarded-for and --client-ip-header ${clientIpHeader} name two ways of sending the client address; pass one`);
  }
  return clientIpHeader;
}

function shipPayloadOf(options: TargetOptions): unknown {
  const text = options.shipPayload ?? TARGET_DEFAULTS.shipPayload;
  try {
    return JSON.parse(text);
  } catch {
    throw new TargetOptionError(`--ship-payload ${JSON.stringify(text)} is not JSON; expected e.g. '{"name":"Conformance"}'`);
  }
}

function sourceIpsOf(options: TargetOptions): string[] {
  if (options.sourceIps === undefined) return [];
  try {
    return expandSourceIps(options.sourceIps);
  } catch (error) {
    throw new TargetOptionError((error as Error).message);
  }
}

/**
 * Checks every option that can be judged without the target: a run whose flags cannot work stops here,
 * before an embedded mock is started or a request sent. Throws TargetOptionError.
 */
export function checkTargetOptions(options: Omit<TargetOptions, 'baseUrl'>): void {
  const withBase = { ...options, baseUrl: '' };
  clientIpHeaderOf(withBase);
  shipPayloadOf(withBase);
  sourceIpsOf(withBase);
  if (options.otpSource !== undefined) checkOtpSource(parseOtpSource(options.otpSource));
}

/** The options a person gave, completed once into the configuration every check (and the fuzzer) reads. */
export async function resolveTargetConfig(options: TargetOptions, seed: number): Promise<ConformanceConfig> {
  checkTargetOptions(options);
  const capabilities = await probeTarget(options.baseUrl, (options.requestTimeout ?? TARGET_DEFAULTS.requestTimeout) * 1000);
  const otpSource = options.otpSource !== undefined ? parseOtpSource(options.otpSource) : capabilities?.outbox ? ({ kind: 'control' } as const) : null;
  return {
    baseUrl: options.baseUrl,
    seed,
    numRuns: options.numRuns ?? TARGET_DEFAULTS.numRuns,
    capabilities,
    otpSource,
    gameOrigin: (typeof options.gameOrigin === 'string' ? options.gameOrigin : options.gameOrigin?.[0]) ?? capabilities?.gameOrigins[0] ?? null,
    unverifiedToken: options.unverifiedToken ?? null,
    challengeToken: options.challengeToken ?? null,
    sourceIps: sourceIpsOf(options),
    clientIpHeader: clientIpHeaderOf(options),
    shipPayload: shipPayloadOf(options),
    waitOtpExpiry: options.waitOtpExpiry ?? false,
    emailTemplate: options.emailTemplate ?? TARGET_DEFAULTS.emailTemplate,
    maxWait: options.maxWait ?? TARGET_DEFAULTS.maxWait,
    requestTimeout: options.requestTimeout ?? TARGET_DEFAULTS.requestTimeout,
  };
}
