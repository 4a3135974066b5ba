import { SENTENCES, type SentenceId, type SpecSentence } from '../../src/spec/sentences.js';
import { type RuleId, SERVER_RULES } from '../rules/index.js';
import { UNTESTED_REASONS, UNTESTED_SENTENCES, type Untested, type UntestedReason } from '../rules/untested.js';

/** One sentence of the spec, with the rules that test it, or why none does. */
export interface SentenceCoverage {
  sentence: SpecSentence & { id: SentenceId };
  rules: RuleId[];
  /** Set for a normative sentence no rule tests. */
  untested: Untested | undefined;
}

/** The server rules that rest on a sentence: a server that breaks it fails a check, a fuzz finding or a proxy finding of one. */
export function rulesTesting(id: SentenceId): RuleId[] {
  return SERVER_RULES.filter((rule) => (rule.sentences as readonly SentenceId[]).includes(id)).map((rule) => rule.id);
}

/** Every sentence of the spec, in its order, with its rules and its reason for being untested. */
export function sentenceCoverage(): SentenceCoverage[] {
  const untested: Partial<Record<SentenceId, Untested>> = UNTESTED_SENTENCES;
  return SENTENCES.map((sentence) => ({ sentence, rules: rulesTesting(sentence.id), untested: untested[sentence.id] }));
}

/** "untested (needs what the spec does not show): no admin route is shown". */
export function describeUntested(untested: Untested): string {
  return `untested (${UNTESTED_REASONS[untested.reason]}): ${untested.why}`;
}

/** How many sentences of each kind, and the normative ones untested by reason. */
export function sentenceCounts(entries: readonly SentenceCoverage[]) {
  const untestedBy = Object.fromEntries(Object.keys(UNTESTED_REASONS).map((reason) => [reason, 0])) as Record<UntestedReason, number>;
  for (const { untested } of entries) if (untested !== undefined) untestedBy[untested.reason]++;
  const ofKind = (kind: SpecSentence['kind']) => entries.filter(({ sentence }) => sentence.kind === kind).length;
  const normative = ofKind('normative');
  return {
    sentences: entries.length,
    normative,
    tested: entries.filter(({ rules }) => rules.length > 0).length,
    untested: normative - entries.filter(({ sentence, rules }) => sentence.kind === 'normative' && rules.length > 0).length,
    untestedBy,
    specSilent: ofKind('spec-silent'),
    descriptive: ofKind('descriptive'),
  };
}
