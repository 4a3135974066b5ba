import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RULES } from '../conformance/rules/index.js';
import { sentenceCoverage } from '../conformance/report/sentence-coverage.js';
import { UNTESTED_SENTENCES } from '../conformance/rules/untested.js';
import { SENTENCES, SPEC_SECTIONS } from '../src/spec/sentences.js';
import { ROOT } from './support/cli.js';

/** The spec the sentences quote: the text under each `#` or `##` heading, and its lines that say something. */
const SPEC = readFileSync(`${ROOT}spec/game-service-api.md`, 'utf8').split('\n');

function sections(): Map<string, string[]> {
  const bySection = new Map<string, string[]>();
  let current: string[] = [];
  for (const line of SPEC) {
    const heading = /^#{1,2} (.*)$/.exec(line);
    if (heading === null) current.push(line);
    else {
      current = [];
      bySection.set(heading[1]!, current);
    }
  }
  return bySection;
}

/**
 * What states something: each table row but the header, and each sentence of the other lines; no heading, blank
 * line, table separator, or lead-in such as "Rules:".
 */
function statements(): string[] {
  return SPEC.flatMap((line, index) => {
    if (/^#|^\s*$|^\|[-| ]+\|$|:$/.test(line) || /^\|[-| ]+\|$/.test(SPEC[index + 1] ?? '')) return [];
    return line.startsWith('|') ? [line] : line.replace(/^(-|\d+\.) /, '').split(/(?<=\.) (?=[A-Z])/);
  });
}

describe('the sentences of the spec (src/spec/sentences.ts)', () => {
  it('quote the spec verbatim, each within its own section', () => {
    const bySection = sections();
    expect([...bySection.keys()]).toEqual([...SPEC_SECTIONS]);
    const misquoted = SENTENCES.filter((sentence) => !bySection.get(sentence.section)!.some((line) => line.includes(sentence.words)));
    expect(misquoted.map(({ id, words }) => `${id}: ${words}`)).toEqual([]);
  });

  it('leave no sentence or table row of the spec without one', () => {
    const uncovered = statements().filter((statement) => !SENTENCES.some((sentence) => statement.includes(sentence.words)));
    expect(uncovered).toEqual([]);
  });

  it('have unique ids, none of them a rule id', () => {
    const ids = SENTENCES.map((sentence) => sentence.id);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
    expect(ids.filter((id) => RULES.some((rule) => rule.id === (id as string)))).toEqual([]);
  });
});

describe('the coverage of the sentences', () => {
  const known = new Map<string, string>(SENTENCES.map((sentence) => [sentence.id, sentence.kind]));

  it('has every rule name at least one normative sentence, and only known ones', () => {
    const wrong = RULES.flatMap(({ id: rule, sentences: ids }) => [
      ...(ids.length === 0 ? [`${rule} names no sentence`] : []),
      ...ids.filter((id) => known.get(id) !== 'normative').map((id) => `${rule} names ${id} (${known.get(id) ?? 'unknown'})`),
    ]);
    expect(wrong).toEqual([]);
  });

  it('gives each normative sentence a rule or a reason, never both; the others neither', () => {
    const wrong = sentenceCoverage().flatMap(({ sentence, rules, untested }) => {
      const tested = rules.length > 0;
      if (sentence.kind !== 'normative') return tested || untested !== undefined ? [`${sentence.id} is ${sentence.kind}`] : [];
      if (tested && untested !== undefined) return [`${sentence.id} is tested by ${rules.join(', ')} yet listed as untested`];
      return tested || untested !== undefined ? [] : [`${sentence.id} has neither a rule nor a reason`];
    });
    expect(wrong).toEqual([]);
    expect(Object.keys(UNTESTED_SENTENCES).filter((id) => !known.has(id))).toEqual([]);
  });
});
