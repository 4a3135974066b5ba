import type { ErrorObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import { worldSchema } from '../core/world-schema.js';
import { configSchema } from './config-schema.js';
import { schemaProblems } from './schema-problems.js';

/** Every `pattern` anywhere in a schema. */
function patterns(schema: unknown): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  return Object.entries(schema).flatMap(([key, value]) => (key === 'pattern' && typeof value === 'string' ? [value] : patterns(value)));
}

describe('schemaProblems', () => {
  const filePatterns = [...new Set([...patterns(configSchema), ...patterns(worldSchema)])];

  it.each(filePatterns)('says the pattern %s of a file the CLI reads in words, with the value that missed it', (pattern) => {
    const miss = { keyword: 'pattern', instancePath: '/at', schemaPath: '#/at/pattern', params: { pattern }, data: 'oops' } as ErrorObject;
    const [problem] = schemaProblems([miss]);
    expect(problem).toMatch(/^\/at must be [a-z].*, not "oops"$/);
    expect(problem).not.toContain(pattern);
  });

  it('finds the patterns it checks', () => {
    expect(filePatterns.length).toBeGreaterThanOrEqual(4);
  });
});
