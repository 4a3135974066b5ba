import { counted } from '../common/counted.js';
import { type JunitTestcase, junitXml, RUN_TESTCASE } from '../report/junit.js';
import { FUZZ_RULES } from '../rules/index.js';
import type { FuzzResult } from './run-fuzz.js';

export const FUZZ_SUITE_NAME = 'game-service fuzz';

/** Each property the fuzzer judges: failed where the shrunk sequence breaks it, with that sequence and its replay. */
function propertyCases(result: FuzzResult, replayCommand: string | undefined): JunitTestcase[] {
  const broken = new Map<string, string[]>();
  for (const step of result.failure?.steps ?? [])
    for (const finding of step.findings) broken.set(finding.rule, [...(broken.get(finding.rule) ?? []), finding.message]);
  const stopped =
    result.stoppedBy === undefined ? undefined : `interrupted (${result.stoppedBy}) after ${counted(result.runs, 'sequence')}: not fuzzed to the end`;
  return FUZZ_RULES.map(({ id: rule, fuzz }) => {
    const name = `${rule} ${fuzz}`;
    const messages = broken.get(rule);
    if (messages !== undefined && result.failure !== undefined) {
      const replay = replayCommand === undefined ? '' : `\n\nReplay exactly this sequence with:\n  ${replayCommand}`;
      const text = `${messages.join('\n')}\n\nShortest sequence found (seed ${result.seed}, path ${result.failure.path}):\n${result.failure.report}${replay}`;
      return { name, failures: [{ message: messages[0]!, type: rule, text }] };
    }
    if (stopped !== undefined) return { name, skipped: stopped };
    if (result.error !== undefined) return { name, skipped: `not fuzzed: ${result.error}` };
    return { name };
  });
}

/**
 * `fuzz --junit FILE`: one testcase per property the fuzzer judges, a disagreement under the properties it breaks
 * (the shrunk sequence and the command that replays it in the failure); a run that could not start or broke off
 * adds a failing testcase naming why, and one stopped by a signal marks the properties not fuzzed to the end.
 */
export function fuzzJunitReport(result: FuzzResult, target: string, replayCommand?: string): string {
  const cases = propertyCases(result, replayCommand);
  const { error } = result;
  if (error !== undefined) cases.push({ name: RUN_TESTCASE.title, failures: [{ message: error.split('\n')[0]!, type: RUN_TESTCASE.rule, text: error }] });
  const totals = { failures: cases.filter((each) => each.failures !== undefined).length, durationMs: result.durationMs };
  const properties = { target, seed: result.seed, interrupted: result.stoppedBy };
  return junitXml(FUZZ_SUITE_NAME, totals, properties, [{ area: 'rate limits', ...totals, testcases: cases }]);
}
