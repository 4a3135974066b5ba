import { TARGET_DEFAULTS } from '../../conformance/target/target-defaults.js';
import { parseCount } from '../standalone/flag-values.js';
import { readableFile } from '../standalone/readable-file.js';
import type { CommandSetting } from './command-setting.js';
import { harOutput, writableFile } from './file-flags.js';
import { TARGET_SETTINGS, targetCheck } from './target-settings.js';

/** Every setting of `game-service check` (CheckCommandOptions), in the order --help lists them. */
export const CHECK_SETTINGS = [
  ...TARGET_SETTINGS,
  {
    name: 'unverified-token',
    kind: 'string',
    description: 'A token of a player whose email is not verified: enables ship gating without a control API',
  },
  { name: 'wait-otp-expiry', kind: 'boolean', description: "Without clock control, wait a real 15 minutes to check a code's expiry" },
  {
    name: 'max-wait',
    kind: 'number',
    parse: parseCount('max-wait'),
    defaultText: String(TARGET_DEFAULTS.maxWait),
    description: 'Most seconds to wait for a rate-limit window in real time',
  },
  {
    name: 'request-timeout',
    kind: 'number',
    parse: parseCount('request-timeout', 1),
    defaultText: String(TARGET_DEFAULTS.requestTimeout),
    description: "Most seconds one answer may take, headers and body together; a check waits four times that in all for the target's answers",
  },
  {
    name: 'num-runs',
    kind: 'number',
    parse: parseCount('num-runs', 1),
    defaultText: String(TARGET_DEFAULTS.numRuns),
    description: 'Runs per property that sends no rate-limited request',
  },
  {
    name: 'only',
    kind: 'string',
    check: targetCheck('only'),
    description: 'Run only the checks whose title matches (a rule id such as RL-429, or a regular expression)',
  },
  { name: 'junit', kind: 'string', parse: writableFile('junit'), description: 'Also write a JUnit XML report to FILE' },
  { name: 'json', kind: 'string', parse: writableFile('json'), description: 'Also write a JSON report to FILE' },
  {
    name: 'har',
    kind: 'string',
    parse: harOutput,
    description: "Also write every request and response of the checks as HAR 1.2 to FILE (one page per check; the control API's marked), for devtools",
  },
  {
    name: 'force',
    kind: 'boolean',
    description:
      'Run every check even where the target does not look like this API (its /health and register answers unlike the spec); by default only the health checks run then',
  },
  {
    name: 'recording',
    kind: 'string',
    parse: readableFile('recording'),
    description:
      "Check the target against a recording (proxy --record FILE) instead of the spec's checks: send its session again as a player of the run's own and report where an answer's shape drifted from the recorded one",
  },
  {
    name: 'state-command',
    kind: 'string',
    description:
      'With --recording: a shell command run before the session (GAME_SERVICE_STATE=before-run) and once its player is made (player-made, with GAME_SERVICE_PLAYER_EMAIL and GAME_SERVICE_PLAYER_TOKEN), to set up state the recording depended on',
  },
  { name: 'dry-run', kind: 'boolean', description: 'With --recording: list the requests the run would send, and send nothing' },
  {
    name: 'coverage',
    kind: 'boolean',
    description: "After the run, print each sentence of the spec with its checks' verdicts, or why the suite leaves it untested",
  },
] as const satisfies readonly CommandSetting[];
