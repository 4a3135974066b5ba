import { isIP } from 'node:net';
import { parseReplayToken } from '../../conformance/fuzz/report.js';
import { expandSourceIps } from '../../conformance/target/identities.js';
import { checkOnlyPattern } from '../../conformance/run/only-pattern.js';
import { checkOtpSource, parseOtpSource } from '../../conformance/otp/index.js';
import { checkTargetOptions } from '../../conformance/target/target-options.js';
import { CliError } from '../standalone/cli-error.js';
import { definedOnly } from '../standalone/defined-only.js';
import { repeatedRoutePrefix } from './base-url-path.js';

/**
 * The checks of `check` and `fuzz` values that read the suite: loaded only when one of their values is judged
 * (target-settings.ts), since the conformance modules they read are not light.
 */

function checkSourceIps(value: string): void {
  for (const address of expandSourceIps(value)) {
    if (isIP(address) === 0) throw new Error(`--source-ips ${JSON.stringify(value)}: ${address} is not an IP address`);
  }
}

/** Runs `check`, its Error a usage error (exit 2). These checks throw nothing else but CliErrors, which pass as they are. */
function asUsage(check: () => void): void {
  try {
    check();
  } catch (error) {
    throw error instanceof Error && !(error instanceof CliError) ? new CliError('GS_USAGE', error.message) : error;
  }
}

const CHECKS = {
  otpSource: (value: string) => checkOtpSource(parseOtpSource(value)),
  sourceIps: checkSourceIps,
  clientIpHeader: (value: string) => checkTargetOptions({ clientIpHeader: value }),
  shipPayload: (value: string) => checkTargetOptions({ shipPayload: value }),
  only: checkOnlyPattern,
  replay: (value: string) => void parseReplayToken(value),
};

/** By option, a check that throws a usage error naming the flag and its value. */
export const TARGET_CHECKS: Readonly<Record<keyof typeof CHECKS, (value: string) => void>> = Object.fromEntries(
  Object.entries(CHECKS).map(([name, check]) => [name, (value: string) => asUsage(() => check(value))]),
) as Record<keyof typeof CHECKS, (value: string) => void>;

/** The values of check and fuzz that exclude or need each other. */
interface Combined {
  baseUrl?: string;
  keepBasePath?: boolean;
  forwardedFor?: boolean;
  clientIpHeader?: string;
  seed?: number;
  replay?: string;
  recording?: string;
  stateCommand?: string;
  dryRun?: boolean;
  only?: string;
  coverage?: boolean;
  waitOtpExpiry?: boolean;
  unverifiedToken?: string;
}

/** The flags of the spec's checks, which a run of a recording (its own requests only) does not take. */
const SPEC_CHECKS_ONLY = {
  only: '--only',
  coverage: '--coverage',
  waitOtpExpiry: '--wait-otp-expiry',
  unverifiedToken: '--unverified-token',
} as const;

/** --recording runs a recorded session instead of the spec's checks: what only it takes, and what it needs. */
function checkRecordingCombinations(combined: Combined): void {
  const { recording, stateCommand, dryRun, baseUrl } = combined;
  if (recording === undefined) {
    if (stateCommand !== undefined) throw new CliError('GS_USAGE', '--state-command sets up state for a recording: it needs --recording FILE');
    if (dryRun === true) throw new CliError('GS_USAGE', '--dry-run lists what a recording would send: it needs --recording FILE');
    return;
  }
  for (const [key, flag] of Object.entries(SPEC_CHECKS_ONLY)) {
    if (combined[key as keyof typeof SPEC_CHECKS_ONLY] !== undefined && combined[key as keyof typeof SPEC_CHECKS_ONLY] !== false)
      throw new CliError('GS_USAGE', `${flag} is a flag of the spec's checks; --recording sends the recording's requests instead of them`);
  }
  if (baseUrl === undefined && dryRun !== true)
    throw new CliError(
      'GS_USAGE',
      '--recording compares a target with what the recorded client read: pass --base-url (the deployment, or a mock started with --config and the recording)',
    );
}

/** The values that only together cannot work, each pair a usage error (exit 2) before anything starts. */
export function checkCombinations(combined: Combined): void {
  const { baseUrl, keepBasePath, forwardedFor, clientIpHeader, seed, replay } = combined;
  checkRecordingCombinations(combined);
  // Two ways of sending the client's address: --forwarded-for is --client-ip-header X-Forwarded-For.
  asUsage(() => checkTargetOptions(definedOnly({ forwardedFor, clientIpHeader })));
  // A base URL ending in /api (or another route prefix) would send /api/api/…, unless its routes really are under it twice.
  const mistake = baseUrl === undefined || keepBasePath === true ? undefined : repeatedRoutePrefix(baseUrl);
  if (mistake !== undefined) throw new CliError('GS_USAGE', mistake);
  // A replayed sequence is drawn again from its run's seed.
  if (replay !== undefined && seed === undefined) {
    throw new CliError('GS_USAGE', '--replay needs the --seed printed with it: a sequence is replayed from the seed of the run that found it');
  }
}
