import { counted } from '../report/counted.js';
import { xml } from '../report/run-report.js';
import { FUZZ_RULES } from '../rules/index.js';
import type { FuzzResult } from './run-fuzz.js';

export const FUZZ_SUITE_NAME = 'game-service fuzz';

interface FuzzTestcase {
  name: string;
  failure?: { message: string; text: string; type: string };
  skipped?: string;
}

/** Each property the fuzzer judges: failed where the shrunk sequence breaks it, with that sequence and its replay. */
function propertyCases(result: FuzzResult, replayCommand: string | undefined): FuzzTestcase[] {
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
      return { name, failure: { message: messages[0]!, text, type: rule } };
    }
    if (stopped !== undefined) return { name, skipped: stopped };
    if (result.error !== undefined) return { name, skipped: `not fuzzed: ${result.error}` };
    return { name };
  });
}

function testcaseXml({ name, failure, skipped }: FuzzTestcase, classname: string): string {
  const open = `    <testcase classname="${xml(classname)}" name="${xml(name)}"`;
  if (failure !== undefined)
    return `${open}>\n      <failure message="${xml(failure.message)}" type="${xml(failure.type)}">${xml(failure.text)}</failure>\n    </testcase>`;
  if (skipped !== undefined) return `${open}>\n      <skipped message="${xml(skipped)}"/>\n    </testcase>`;
  return `${open}/>`;
}

/**
 * `fuzz --junit FILE`: one testcase per property the fuzzer judges, a disagreement under the properties it breaks
 * (the shrunk sequence and the command that replays it in the failure); a run that could not start or broke off
 * adds a failing testcase naming why, and one stopped by a signal marks the properties not fuzzed to the end.
 */
export function fuzzJunitReport(result: FuzzResult, target: string, replayCommand?: string): string {
  const cases = propertyCases(result, replayCommand);
  if (result.error !== undefined)
    cases.push({ name: 'the run reaches the target and completes', failure: { message: result.error.split('\n')[0]!, text: result.error, type: 'RUN' } });
  const failures = cases.filter((each) => each.failure !== undefined).length;
  const skipped = cases.filter((each) => each.skipped !== undefined).length;
  const time = (result.durationMs / 1000).toFixed(3);
  const interrupted = result.stoppedBy === undefined ? '' : `<property name="interrupted" value="${result.stoppedBy}"/>`;
  const counts = `tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${time}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${FUZZ_SUITE_NAME}" ${counts}>`,
    `  <testsuite name="${FUZZ_SUITE_NAME}: rate limits" ${counts}>`,
    `    <properties><property name="target" value="${xml(target)}"/><property name="seed" value="${result.seed}"/>${interrupted}</properties>`,
    ...cases.map((each) => testcaseXml(each, `${FUZZ_SUITE_NAME}.rate limits`)),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
