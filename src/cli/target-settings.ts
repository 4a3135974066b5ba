import { TARGET_DEFAULTS } from '../../conformance/target/target-defaults.js';
import { CliError } from '../standalone/cli-error.js';
import { parseBaseUrl, parseCount } from '../standalone/flag-values.js';
import { GAME_ORIGIN_FLAG } from '../standalone/game-origin-flag.js';
import type { CommandSetting } from './command-setting.js';
import type { TARGET_CHECKS } from './target-checks.js';

/** A check of target-checks.ts, its module loaded only when a value is judged: the suite's modules it reads are not light. */
export function targetCheck(name: keyof typeof TARGET_CHECKS): (value: string) => Promise<void> {
  return async (value) => (await import('./target-checks.js')).TARGET_CHECKS[name](value);
}

function checkEmailTemplate(value: string): void {
  if (!value.includes('{id}')) {
    throw new CliError(
      'GS_USAGE',
      `--email-template ${JSON.stringify(value)} has no {id}: every registration would use one address; e.g. conformance+{id}@example.com`,
    );
  }
  if (!value.includes('@'))
    throw new CliError('GS_USAGE', `--email-template ${JSON.stringify(value)} makes no email address; e.g. conformance+{id}@example.com`);
}

/** How to reach and drive a target: the settings `check` and `fuzz` share (TargetOptions), in the order --help lists them. */
export const TARGET_SETTINGS = [
  { name: 'base-url', kind: 'string', parse: parseBaseUrl, defaultText: 'an embedded mock on a free port', description: 'The server to check' },
  {
    name: 'keep-base-path',
    kind: 'boolean',
    description: 'Take a --base-url whose path ends in /api or a route prefix as it is (its routes really are under it twice)',
  },
  {
    name: 'otp-source',
    kind: 'string',
    check: targetCheck('otpSource'),
    defaultText: 'control, where the target has a control API',
    description:
      'Where codes are read: control, log:FILE (lines naming the email and a code of 4 to 10 digits), command:CMD (run with OTP_EMAIL set; prints the code) or prompt',
  },
  {
    ...GAME_ORIGIN_FLAG,
    description: "The target's configured game origins (repeatable, or comma-separated): the first enables the exemption checks",
  },
  {
    name: 'challenge-token',
    kind: 'string',
    description: 'A bot-check token the target accepts, sent with every registration (targets with the bot-check on)',
  },
  {
    name: 'source-ips',
    kind: 'string',
    check: targetCheck('sourceIps'),
    description: 'Local addresses to send from, one client each, e.g. 127.0.0.2-127.0.0.200 (per-IP checks)',
  },
  { name: 'forwarded-for', kind: 'boolean', description: 'Stand for many clients with X-Forwarded-For (targets that trust it)' },
  {
    name: 'client-ip-header',
    kind: 'string',
    check: targetCheck('clientIpHeader'),
    description:
      'Stand for many clients with this header instead: CF-Connecting-IP, X-Real-IP, True-Client-IP, Forwarded, … (targets behind a proxy that trust it)',
  },
  {
    name: 'ship-payload',
    kind: 'string',
    check: targetCheck('shipPayload'),
    defaultText: TARGET_DEFAULTS.shipPayload,
    description: 'The JSON body of POST /api/player/ship, which the spec does not show (what the target takes)',
  },
  {
    name: 'email-template',
    kind: 'string',
    check: checkEmailTemplate,
    defaultText: TARGET_DEFAULTS.emailTemplate,
    description: 'Addresses to register; {id} is replaced by a unique id',
  },
  { name: 'seed', kind: 'number', parse: parseCount('seed'), description: 'Replay a run: the same generated inputs, in the same order' },
  {
    name: 'keep-journal',
    kind: 'boolean',
    description: "Leave the run's requests in a control-API target's journal (by default the run takes them out at its end, as it puts the rest back)",
  },
] as const satisfies readonly CommandSetting[];
