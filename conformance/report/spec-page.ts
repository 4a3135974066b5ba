import { PLAIN_SENTENCES } from '../../src/spec/sentences-plain.js';
import { SPEC_SECTIONS, type SpecSection } from '../../src/spec/sentences.js';
import type { DeclaredCheck } from './declared-check.js';
import { describeUntested, sentenceCoverage, type SentenceCoverage } from './sentence-coverage.js';
import { clientRulesOn, fuzzRulesAmong, md } from './spec-coverage-page.js';

export const SPEC_PAGE = 'docs/spec.md';

/** A heading's anchor as GitHub makes it (the spec's and the coverage page's headings are plain words). */
const anchor = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');

function intro(): string[] {
  return [
    '# The spec in plain words',
    '',
    '<!-- Written by `npm run spec-coverage` from src/spec/sentences-plain.ts, src/spec/sentences*.ts, the rule registry in',
    '     conformance/rules/ and the checks; edit those, not this page: a test fails when it differs from what they give. -->',
    '',
    "The rules of the Game Service API, one line each in this project's words, by the sections of",
    "[the spec](../spec/game-service-api.md) (the spec itself, word for word). Under each rule: the id of the spec's",
    "sentence it restates, and the rules of [`game-service check`](check.md) whose checks test it (each check's title",
    'starts with its rule), with how many checks each has, and the properties of [`game-service fuzz`](fuzz.md), or why',
    'nothing tests it; where [`game-service proxy`](proxy.md) judges clients by it, the rules it reports them under.',
    "Where the spec leaves something open, the mock's choice is in",
    '[Where the spec is silent](spec-silent.md); [Spec coverage](spec-coverage.md) quotes every sentence with the title',
    'of every check.',
  ];
}

function tests(entry: SentenceCoverage, checks: readonly DeclaredCheck[]): string {
  const judgedLive = clientRulesOn(entry.sentence.id).map((rule) => `\`${rule.id}\``);
  const live = judgedLive.length === 0 ? [] : [`[proxy](proxy.md) on clients ${judgedLive.join(', ')}`];
  return [testedBy(entry, checks), ...live].join('; ');
}

function testedBy({ rules, untested }: SentenceCoverage, checks: readonly DeclaredCheck[]): string {
  if (untested !== undefined) return md(describeUntested(untested));
  const counted = rules.map((rule) => `\`${rule}\` (${checks.filter((check) => check.rule === rule).length})`);
  const fuzzed = fuzzRulesAmong(rules).map((rule) => `\`${rule.id}\``);
  return [`checks ${counted.join(', ')}`, ...(fuzzed.length === 0 ? [] : [`fuzz ${fuzzed.join(', ')}`])].join('; ');
}

function section(name: SpecSection, entries: readonly SentenceCoverage[], checks: readonly DeclaredCheck[]): string[] {
  const ofSection = entries.filter(({ sentence }) => sentence.section === name);
  const rules = ofSection.filter(({ sentence }) => sentence.kind === 'normative');
  const open = ofSection.filter(({ sentence }) => sentence.kind === 'spec-silent');
  const plain = ({ sentence }: SentenceCoverage) => PLAIN_SENTENCES[sentence.id as keyof typeof PLAIN_SENTENCES];
  return [
    '',
    `## ${name}`,
    '',
    `The spec's words: [${name}](../spec/game-service-api.md#${anchor(name)}); every check's title: [coverage](spec-coverage.md#${anchor(name)}).`,
    ...(rules.length === 0 ? [] : ['', ...rules.flatMap((entry) => [`- ${plain(entry)}`, `  - \`${entry.sentence.id}\`: ${tests(entry, checks)}`])]),
    ...(open.length === 0 ? [] : ['', 'Left open:', '', ...open.map((entry) => `- ${plain(entry)} \`${entry.sentence.id}\``)]),
  ];
}

/** The page: each section of the spec with its rules in plain words, their ids and what tests them, then what it leaves open. */
export function specPage(checks: readonly DeclaredCheck[]): string {
  const entries = sentenceCoverage();
  const sections = SPEC_SECTIONS.slice(1).flatMap((name) => section(name, entries, checks));
  return `${[...intro(), ...sections].join('\n')}\n`;
}
