import { isIP } from 'node:net';
import { parseReplayToken } from '../../conformance/fuzz/report.js';
import { expandSourceIps } from '../../conformance/target/identities.js';
import { checkOnlyPattern } from '../../conformance/run/only-pattern.js';
import { checkOtpSource, parseOtpSource } from '../../conformance/otp/index.js';
import { checkTargetOptions } from '../../conformance/target/target-options.js';
import { CliError } from '../standalone/cli-error.js';
import { definedOnly } from '../standalone/defined-only.js';
import { checkWritableFile } from './file-flags.js';
import { repeatedRoutePrefix } from './base-url-path.js';

/**
 * The values of `check` and `fuzz` that the flags' own parsers do not judge, each checked before anything
 * starts (an embedded mock, a request): a run that cannot work ends at once with exit 2. Loaded only for those
 * commands, since the conformance modules it reads are not light.
 */

function checkSourceIps(value: string): void {
  for (const address of expandSourceIps(value)) {
    if (isIP(address) === 0) throw new Error(`--source-ips ${JSON.stringify(value)}: ${address} is not an IP address`);
  }
}

function checkEmailTemplate(value: string): void {
  if (!value.includes('{id}')) {
    throw new Error(`--email-template ${JSON.stringify(value)} has no {id}: every registration would use one address; e.g. conformance+{id}@example.com`);
  }
  if (!value.includes('@')) throw new Error(`--email-template ${JSON.stringify(value)} makes no email address; e.g. conformance+{id}@example.com`);
}

/** Each check throws an Error whose message names the flag and its value. */
const CHECKS: Readonly<Record<string, (value: string) => void>> = {
  'otp-source': (value) => checkOtpSource(parseOtpSource(value)),
  'source-ips': checkSourceIps,
  'client-ip-header': (value) => checkTargetOptions({ clientIpHeader: value }),
  'ship-payload': (value) => checkTargetOptions({ shipPayload: value }),
  'email-template': checkEmailTemplate,
  only: checkOnlyPattern,
  replay: (value) => void parseReplayToken(value),
  json: (value) => checkWritableFile('json', value),
  junit: (value) => checkWritableFile('junit', value),
  har: (value) => checkWritableFile('har', value),
};

/** Runs `check`, its Error a usage error (exit 2). These checks throw nothing else but CliErrors, which pass as they are. */
function asUsage(check: () => void): void {
  try {
    check();
  } catch (error) {
    throw error instanceof Error && !(error instanceof CliError) ? new CliError('GS_USAGE', error.message) : error;
  }
}

/** By flag, a check that throws a usage error naming the flag and its value. */
export const TARGET_FLAG_CHECKS: Readonly<Record<string, (value: string) => void>> = Object.fromEntries(
  Object.entries(CHECKS).map(([flag, check]) => [flag, (value: string) => asUsage(() => check(value))]),
);

/** Every value given to check or fuzz (as yargs parsed them, by flag), and the flags that exclude or need each other. */
export function checkTargetFlags(args: Readonly<Record<string, unknown>>): void {
  for (const [flag, check] of Object.entries(TARGET_FLAG_CHECKS)) {
    const value = args[flag];
    if (typeof value === 'string') check(value);
  }
  asUsage(() =>
    checkTargetOptions(
      definedOnly({ forwardedFor: args['forwarded-for'] as boolean | undefined, clientIpHeader: args['client-ip-header'] as string | undefined }),
    ),
  );
  const baseUrl = args['base-url'];
  if (typeof baseUrl === 'string' && args['keep-base-path'] !== true) {
    const mistake = repeatedRoutePrefix(baseUrl);
    if (mistake !== undefined) throw new CliError('GS_USAGE', mistake);
  }
  if (args['replay'] !== undefined && args['seed'] === undefined) {
    throw new CliError('GS_USAGE', '--replay needs the --seed printed with it: a sequence is replayed from the seed of the run that found it');
  }
}
