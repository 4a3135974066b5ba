import { describe, expect, it } from 'vitest';
import { RULES } from './index.js';

describe('the registry', () => {
  it('gives every rule of the spec its judge: checks, the fuzzer and the proxy judge through it alone', () => {
    expect(RULES.filter((each) => each.judge === undefined).map((each) => each.id)).toEqual([]);
  });
});
