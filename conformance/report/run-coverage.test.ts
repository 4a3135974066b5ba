import { describe, expect, it } from 'vitest';
import { runCoverage } from './run-coverage.js';

const verdicts = (coverage: ReturnType<typeof runCoverage>) => new Map(coverage.sentences.map((sentence) => [sentence.id, sentence.verdict]));

describe('runCoverage', () => {
  it("gives a sentence the worst verdict of its rules' checks: failed, then passed, then skipped", () => {
    const coverage = runCoverage([
      { rule: 'RL-LIMIT', state: 'passed' },
      { rule: 'RL-429', state: 'failed' },
      { rule: 'ERR-404', state: 'passed' },
      { rule: 'TOKEN-EXPIRY', state: 'skipped', reason: 'no clock' },
      { rule: 'TOKEN-EXPIRY', state: 'skipped', reason: 'no clock' },
    ]);
    const verdict = verdicts(coverage);
    expect(verdict.get('LIM-PUBLIC')).toBe('failed');
    expect(verdict.get('LIM-HEADER-LIMIT')).toBe('passed');
    expect(verdict.get('ERR-STATUS-404')).toBe('passed');
    expect(verdict.get('STATE-TOKEN-EXPIRED')).toBe('skipped');
    expect(coverage.sentences.find((sentence) => sentence.id === 'STATE-TOKEN-EXPIRED')!.rules).toEqual([
      { rule: 'TOKEN-EXPIRY', passed: 0, failed: 0, skipped: 2, skipReasons: ['no clock'] },
    ]);
  });

  it('says which sentences the run did not reach, which the suite leaves untested, and which oblige nothing', () => {
    const verdict = verdicts(runCoverage([{ rule: 'ERR-404', state: 'passed' }]));
    expect(verdict.get('ERR-STATUS-405')).toBe('not-run');
    expect(verdict.get('LIM-ADMIN')).toBe('untested');
    expect(verdict.get('EVT-NONE')).toBe('spec-silent');
    expect(verdict.get('DOC-SCOPE')).toBe('descriptive');
  });

  it('counts every normative sentence once', () => {
    const { counts } = runCoverage([{ rule: 'REG-OK', state: 'passed' }]);
    expect(counts.passed + counts.failed + counts.skipped + counts.notRun + counts.untested).toBe(counts.normative);
    expect(counts.normative + counts.specSilent + counts.descriptive).toBe(counts.sentences);
    expect(Object.values(counts.untestedBy).reduce((sum, count) => sum + count, 0)).toBe(counts.untested);
  });
});
