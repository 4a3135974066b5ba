import { FUZZ_DEFAULTS } from '../../conformance/fuzz/fuzz-defaults.js';
import { parseCount } from '../standalone/flag-values.js';
import type { CommandSetting } from './command-setting.js';
import { harOutput, writableFile } from './file-flags.js';
import { TARGET_SETTINGS, targetCheck } from './target-settings.js';

/** Every setting of `game-service fuzz` (FuzzCommandOptions), in the order --help lists them. */
export const FUZZ_SETTINGS = [
  ...TARGET_SETTINGS,
  {
    name: 'num-runs',
    kind: 'number',
    parse: parseCount('num-runs', 1),
    defaultText: `${FUZZ_DEFAULTS.numRunsWithClock} (${FUZZ_DEFAULTS.numRunsRealTime} in real time when sequences must wait for each other's windows)`,
    description: 'Command sequences to try',
  },
  {
    name: 'max-commands',
    kind: 'number',
    parse: parseCount('max-commands', 1),
    defaultText: String(FUZZ_DEFAULTS.maxCommands),
    description: 'Most commands in one sequence',
  },
  {
    name: 'max-duration',
    kind: 'number',
    parse: parseCount('max-duration', 1),
    defaultText: 'none',
    description: 'Stop trying sequences (or shrinking) after this many seconds',
  },
  {
    name: 'replay',
    kind: 'string',
    check: targetCheck('replay'),
    description: 'Replay exactly the sequence a failed run printed (PATH@COMMANDS, with its --seed)',
  },
  {
    name: 'json',
    kind: 'string',
    parse: writableFile('json'),
    description: 'Also write the result as JSON to FILE: figures, choices, and the shrunk sequence with every exchange',
  },
  {
    name: 'junit',
    kind: 'string',
    parse: writableFile('junit'),
    description: 'Also write a JUnit XML report to FILE: a testcase per property, a disagreement with its sequence and replay command',
  },
  {
    name: 'har',
    kind: 'string',
    parse: harOutput,
    description: "Also write every request and response of the run as HAR 1.2 to FILE (one page per sequence; the control API's marked), for devtools",
  },
] as const satisfies readonly CommandSetting[];
