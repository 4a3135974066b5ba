import type { InferredOptionTypes, Options } from 'yargs';
import { FUZZ_DEFAULTS } from '../../conformance/fuzz/fuzz-defaults.js';
import { TARGET_DEFAULTS } from '../../conformance/target/target-defaults.js';
import { parseBaseUrl, parseCount, parseGameOrigin } from '../standalone/flag-values.js';
import { numberFlag } from './flag-kinds.js';
import { MOCK_FLAGS } from './mock-flags.js';
import { PROXY_FLAGS } from './proxy-flags.js';

/** The flags of each command, as yargs reads them: their parsers, defaults shown in --help, and descriptions. */

/** How to reach and drive a target: shared by `check` and `fuzz`. */
const TARGET_FLAGS = {
  'base-url': {
    type: 'string',
    requiresArg: true,
    coerce: parseBaseUrl,
    defaultDescription: 'an embedded mock on a free port',
    describe: 'The server to check',
  },
  'keep-base-path': {
    type: 'boolean',
    describe: 'Take a --base-url whose path ends in /api or a route prefix as it is (its routes really are under it twice)',
  },
  'otp-source': {
    type: 'string',
    requiresArg: true,
    defaultDescription: 'control, where the target has a control API',
    describe:
      'Where codes are read: control, log:FILE (lines naming the email and a code of 4 to 10 digits), command:CMD (run with OTP_EMAIL set; prints the code) or prompt',
  },
  'game-origin': { type: 'string', requiresArg: true, coerce: parseGameOrigin, describe: "The target's configured game origin: enables the exemption checks" },
  'challenge-token': {
    type: 'string',
    requiresArg: true,
    describe: 'A bot-check token the target accepts, sent with every registration (targets with the bot-check on)',
  },
  'source-ips': { type: 'string', requiresArg: true, describe: 'Local addresses to send from, one client each, e.g. 127.0.0.2-127.0.0.200 (per-IP checks)' },
  'forwarded-for': { type: 'boolean', describe: 'Stand for many clients with X-Forwarded-For (targets that trust it)' },
  'client-ip-header': {
    type: 'string',
    requiresArg: true,
    describe:
      'Stand for many clients with this header instead: CF-Connecting-IP, X-Real-IP, True-Client-IP, Forwarded, … (targets behind a proxy that trust it)',
  },
  'ship-payload': {
    type: 'string',
    requiresArg: true,
    defaultDescription: TARGET_DEFAULTS.shipPayload,
    describe: 'The JSON body of POST /api/player/ship, which the spec does not show (what the target takes)',
  },
  'email-template': {
    type: 'string',
    requiresArg: true,
    defaultDescription: 'conformance+{id}@example.com',
    describe: 'Addresses to register; {id} is replaced by a unique id',
  },
  seed: { ...numberFlag(parseCount('seed')), describe: 'Replay a run: the same generated inputs, in the same order' },
} as const satisfies Record<string, Options>;

export const CHECK_FLAGS = {
  ...TARGET_FLAGS,
  'unverified-token': {
    type: 'string',
    requiresArg: true,
    describe: 'A token of a player whose email is not verified: enables ship gating without a control API',
  },
  'wait-otp-expiry': { type: 'boolean', describe: "Without clock control, wait a real 15 minutes to check a code's expiry" },
  'max-wait': { ...numberFlag(parseCount('max-wait')), defaultDescription: '120', describe: 'Most seconds to wait for a rate-limit window in real time' },
  'request-timeout': {
    ...numberFlag(parseCount('request-timeout', 1)),
    defaultDescription: String(TARGET_DEFAULTS.requestTimeoutSeconds),
    describe: "Most seconds one answer may take, headers and body together; a check waits four times that in all for the target's answers",
  },
  'num-runs': { ...numberFlag(parseCount('num-runs', 1)), defaultDescription: '25', describe: 'Runs per property that sends no rate-limited request' },
  only: { type: 'string', requiresArg: true, describe: 'Run only the checks whose title matches (a rule id such as RL-429, or a regular expression)' },
  junit: { type: 'string', requiresArg: true, describe: 'Also write a JUnit XML report to FILE' },
  json: { type: 'string', requiresArg: true, describe: 'Also write a JSON report to FILE' },
  har: {
    type: 'string',
    requiresArg: true,
    describe: "Also write every request and response of the checks as HAR 1.2 to FILE (one page per check; the control API's marked), for devtools",
  },
  force: {
    type: 'boolean',
    describe:
      'Run every check even where the target does not look like this API (its /health and register answers unlike the spec); by default only the health checks run then',
  },
  coverage: {
    type: 'boolean',
    describe: "After the run, print each sentence of the spec with its checks' verdicts, or why the suite leaves it untested",
  },
} as const satisfies Record<string, Options>;

export const FUZZ_FLAGS = {
  ...TARGET_FLAGS,
  'num-runs': {
    ...numberFlag(parseCount('num-runs', 1)),
    defaultDescription: `${FUZZ_DEFAULTS.numRunsWithClock} (${FUZZ_DEFAULTS.numRunsRealTime} in real time when sequences must wait for each other's windows)`,
    describe: 'Command sequences to try',
  },
  'max-commands': {
    ...numberFlag(parseCount('max-commands', 1)),
    defaultDescription: String(FUZZ_DEFAULTS.maxCommands),
    describe: 'Most commands in one sequence',
  },
  'max-duration': {
    ...numberFlag(parseCount('max-duration', 1)),
    defaultDescription: 'none',
    describe: 'Stop trying sequences (or shrinking) after this many seconds',
  },
  replay: { type: 'string', requiresArg: true, describe: 'Replay exactly the sequence a failed run printed (PATH@COMMANDS, with its --seed)' },
  json: { type: 'string', requiresArg: true, describe: 'Also write the result as JSON to FILE: figures, choices, and the shrunk sequence with every exchange' },
  junit: {
    type: 'string',
    requiresArg: true,
    describe: 'Also write a JUnit XML report to FILE: a testcase per property, a disagreement with its sequence and replay command',
  },
  har: {
    type: 'string',
    requiresArg: true,
    describe: "Also write every request and response of the run as HAR 1.2 to FILE (one page per sequence; the control API's marked), for devtools",
  },
} as const satisfies Record<string, Options>;

/** The values of TARGET_FLAGS, as the options of check and fuzz name them. */
export function targetArguments(args: InferredOptionTypes<typeof TARGET_FLAGS>) {
  return {
    baseUrl: args['base-url'],
    otpSource: args['otp-source'],
    gameOrigin: args['game-origin'],
    challengeToken: args['challenge-token'],
    sourceIps: args['source-ips'],
    forwardedFor: args['forwarded-for'],
    clientIpHeader: args['client-ip-header'],
    shipPayload: args['ship-payload'],
    emailTemplate: args['email-template'],
    seed: args.seed,
  };
}

/** Every flag of each command: what GAME_SERVICE_<FLAG> variables may set. */
export const COMMAND_FLAGS: Readonly<Record<string, Readonly<Record<string, Options>>>> = {
  mock: MOCK_FLAGS,
  check: CHECK_FLAGS,
  fuzz: FUZZ_FLAGS,
  proxy: PROXY_FLAGS,
};
