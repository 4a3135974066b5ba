import { describe, expect, it } from 'vitest';
import { FUZZ_RULES } from '../rules/index.js';
import { fuzzJunitReport } from './fuzz-report-junit.js';
import type { FuzzResult } from './run-fuzz.js';

const TARGET = 'http://127.0.0.1:8080/';
const base: FuzzResult = {
  exitCode: 0,
  seed: 42,
  runs: 100,
  commands: 2_000,
  requests: 1_900,
  limited: 80,
  durationMs: 2_500,
  choices: [],
  interrupted: false,
};
const testcases = (xml: string) => [...xml.matchAll(/<testcase /g)].length;

describe('fuzz --junit', () => {
  it('one passing testcase per property the fuzzer judges', () => {
    const xml = fuzzJunitReport(base, TARGET);
    expect(testcases(xml)).toBe(FUZZ_RULES.length);
    expect(xml).toContain(`failures="0" errors="0" skipped="0"`);
    expect(xml).toContain(
      '<testcase classname="game-service fuzz.rate limits" name="RL-REMAINING X-RateLimit-Remaining one less per counted request, per bucket"/>',
    );
  });

  it('a disagreement fails the properties it breaks, with the shrunk sequence and the command that replays it', () => {
    const failure = {
      report: '  1. GET /api/player as player 1\n     ✗ RL-REMAINING',
      steps: [{ description: 'GET /api/player', findings: [{ rule: 'RL-REMAINING' as const, message: 'X-RateLimit-Remaining 58, expected 59' }] }],
      path: '4:2',
      replay: '4:2@EB',
      shrinks: 3,
    };
    const replay = `game-service fuzz --base-url ${TARGET} --seed 42 --replay 4:2@EB`;
    const xml = fuzzJunitReport({ ...base, exitCode: 1, failure }, TARGET, replay);
    expect(xml).toContain('failures="1"');
    expect(xml).toMatch(/name="RL-REMAINING [^"]*">\n\s+<failure message="X-RateLimit-Remaining 58, expected 59" type="RL-REMAINING">/);
    expect(xml).toContain('Shortest sequence found (seed 42, path 4:2):');
    expect(xml).toContain(`Replay exactly this sequence with:\n  ${replay}`);
  });

  it('a run stopped by a signal: marked, its properties skipped as not fuzzed to the end', () => {
    const xml = fuzzJunitReport({ ...base, exitCode: 130, interrupted: true, stoppedBy: 'SIGINT', runs: 12 }, TARGET);
    expect(xml).toContain('<property name="interrupted" value="SIGINT"/>');
    expect(xml).toContain('<skipped message="interrupted (SIGINT) after 12 sequences: not fuzzed to the end"/>');
    expect(xml).toContain(`skipped="${FUZZ_RULES.length}"`);
  });

  it('a run that could not start: a failing testcase naming why', () => {
    const xml = fuzzJunitReport({ ...base, exitCode: 2, runs: 0, error: 'cannot reach http://127.0.0.1:1/: ECONNREFUSED' }, 'http://127.0.0.1:1/');
    expect(xml).toMatch(
      /name="the run reaches the target and completes">\n\s+<failure message="cannot reach http:\/\/127\.0\.0\.1:1\/: ECONNREFUSED" type="RUN">/,
    );
    expect(xml).toContain('<skipped message="not fuzzed: cannot reach http://127.0.0.1:1/: ECONNREFUSED"/>');
  });
});
