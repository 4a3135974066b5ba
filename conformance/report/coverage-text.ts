import { SPEC_SECTIONS } from '../../src/spec/sentences.js';
import { UNTESTED_REASONS, type UntestedReason } from '../rules/untested.js';
import { counted } from '../common/counted.js';
import type { RuleOutcome, RunCoverage, SentenceRun } from './run-coverage.js';
import { describeUntested } from './sentence-coverage.js';
import { SPEC_COVERAGE_PAGE } from './spec-coverage-page.js';

const MARKS = { passed: '✓', failed: '✗', skipped: '-', 'not-run': '·', untested: '○' } as const;

/** "RL-LIMIT 4 passed, 1 skipped (no game origin: pass --game-origin)", or "RL-EXEMPT not run". */
function describeRule(rule: RuleOutcome): string {
  const states = (['passed', 'failed', 'skipped'] as const).filter((state) => rule[state] > 0).map((state) => `${rule[state]} ${state}`);
  if (states.length === 0) return `${rule.rule} not run`;
  return `${rule.rule} ${states.join(', ')}${rule.skipReasons.length === 0 ? '' : ` (${rule.skipReasons.join('; ')})`}`;
}

function sentenceLines(sentence: SentenceRun): string[] {
  if (sentence.verdict === 'spec-silent' || sentence.verdict === 'descriptive') return [];
  const head = `  ${MARKS[sentence.verdict]} ${sentence.id} «${sentence.words}»`;
  if (sentence.untested !== undefined) return [head, `      ${describeUntested(sentence.untested)}`];
  const detail = sentence.verdict === 'not-run' ? `not run: no check of ${sentence.rules.map((rule) => rule.rule).join(', ')} was selected` : '';
  return [head, `      ${detail || sentence.rules.map(describeRule).join('; ')}`];
}

/** `check --coverage`: each normative sentence as this run tested it, by section, then the counts. */
export function describeRunCoverage(coverage: RunCoverage): string {
  const { counts } = coverage;
  const sections = SPEC_SECTIONS.flatMap((section) => {
    const lines = coverage.sentences.filter((sentence) => sentence.section === section).flatMap(sentenceLines);
    return lines.length === 0 ? [] : [section, ...lines];
  });
  const untested = Object.entries(counts.untestedBy)
    .filter(([, count]) => count > 0)
    .map(([reason, count]) => `${count} ${UNTESTED_REASONS[reason as UntestedReason]}`);
  const tested = [
    `${counts.passed} passed`,
    `${counts.failed} failed`,
    `${counts.skipped} skipped`,
    ...(counts.notRun > 0 ? [`${counts.notRun} not run`] : []),
  ];
  return [
    `Spec coverage of this run (the whole map: ${SPEC_COVERAGE_PAGE}):`,
    ...sections,
    `${counted(counts.sentences, 'sentence')} in the spec: ${counts.normative} normative, tested here ${tested.join(', ')}; ` +
      `${counts.untested} untested by the suite (${untested.join(', ')}); ${counts.specSilent} spec-silent, ${counts.descriptive} descriptive`,
  ].join('\n');
}
