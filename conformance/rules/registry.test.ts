import { describe, expect, it } from 'vitest';
import { RULES, ruleQuote, ruleWords } from './index.js';

describe('the registry', () => {
  it('gives every rule of the spec its judge: checks, the fuzzer and the proxy judge through it alone', () => {
    expect(RULES.filter((each) => each.judge === undefined).map((each) => each.id)).toEqual([]);
  });

  it("says every rule in words a reader takes in: no raw row of the spec's tables, a plain quote as it is", () => {
    for (const { id } of RULES) expect(ruleWords(id), id).not.toContain(' | ');
    expect(ruleWords('RL-429')).toBe(ruleQuote('RL-429'));
    expect(ruleQuote('CLIENT-REGISTER-FIELDS')).toContain(' | ');
    expect(ruleWords('CLIENT-REGISTER-FIELDS')).toMatch(/^`POST \/api\/auth\/register` needs no token, takes `email`[^|]+\.$/);
  });
});
