import type { SentenceId, SpecSection } from '../../src/spec/sentences.js';
import type { RuleId } from '../rules/index.js';
import type { Untested, UntestedReason } from '../rules/untested.js';
import type { CheckResult } from './check-result.js';
import { sentenceCounts, sentenceCoverage } from './sentence-coverage.js';

/** How one rule's checks of a run ended, with the reasons of those skipped. */
export interface RuleOutcome {
  rule: RuleId;
  passed: number;
  failed: number;
  skipped: number;
  skipReasons: string[];
}

/**
 * A sentence as one run tested it: failed when a check of its rules failed, passed when one passed, skipped when
 * all of them were skipped, not-run when the run selected none of them (--only); untested when no rule tests it.
 */
export type SentenceVerdict = 'passed' | 'failed' | 'skipped' | 'not-run' | 'untested' | 'spec-silent' | 'descriptive';

export interface SentenceRun {
  id: SentenceId;
  section: SpecSection;
  words: string;
  verdict: SentenceVerdict;
  rules: RuleOutcome[];
  untested?: Untested;
}

export interface RunCoverage {
  counts: { sentences: number; normative: number; specSilent: number; descriptive: number } & Record<
    'passed' | 'failed' | 'skipped' | 'notRun' | 'untested',
    number
  > & { untestedBy: Record<UntestedReason, number> };
  sentences: SentenceRun[];
}

function outcome(rule: RuleId, checks: readonly Pick<CheckResult, 'rule' | 'state' | 'reason'>[]): RuleOutcome {
  const own = checks.filter((check) => check.rule === rule);
  const count = (state: CheckResult['state']) => own.filter((check) => check.state === state).length;
  const skipReasons = [...new Set(own.flatMap((check) => (check.state === 'skipped' ? [check.reason ?? 'did not run'] : [])))];
  return { rule, passed: count('passed'), failed: count('failed'), skipped: count('skipped'), skipReasons };
}

function verdictOf(outcomes: readonly RuleOutcome[]): SentenceVerdict {
  if (outcomes.some((rule) => rule.failed > 0)) return 'failed';
  if (outcomes.some((rule) => rule.passed > 0)) return 'passed';
  return outcomes.some((rule) => rule.skipped > 0) ? 'skipped' : 'not-run';
}

/** Every sentence of the spec as this run's checks tested it. */
export function runCoverage(checks: readonly Pick<CheckResult, 'rule' | 'state' | 'reason'>[]): RunCoverage {
  const entries = sentenceCoverage();
  const sentences = entries.map(({ sentence, rules, untested }): SentenceRun => {
    const { id, section, words, kind } = sentence;
    if (kind !== 'normative') return { id, section, words, verdict: kind, rules: [] };
    if (untested !== undefined) return { id, section, words, verdict: 'untested', rules: [], untested };
    const outcomes = rules.map((rule) => outcome(rule, checks));
    return { id, section, words, verdict: verdictOf(outcomes), rules: outcomes };
  });
  const { sentences: total, normative, specSilent, descriptive, untestedBy } = sentenceCounts(entries);
  const count = (verdict: SentenceVerdict) => sentences.filter((sentence) => sentence.verdict === verdict).length;
  return {
    counts: {
      sentences: total,
      normative,
      passed: count('passed'),
      failed: count('failed'),
      skipped: count('skipped'),
      notRun: count('not-run'),
      untested: count('untested'),
      untestedBy,
      specSilent,
      descriptive,
    },
    sentences,
  };
}
