import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.js';
import { bodyMatcher } from './body-match.js';

const body = JSON.stringify({ email: 'pilot@example.com', ship: { name: 'Nomad', crew: 3 }, tags: ['a', 'b'] });

describe('the journal filter bodyMatches', () => {
  it('takes a JSON object or array as a subset the body must hold, nested, other fields beside', () => {
    expect(bodyMatcher('{"ship": {"name": "Nomad"}}')(body)).toBe(true);
    expect(bodyMatcher('{"email": "pilot@example.com", "tags": ["a", "b"]}')(body)).toBe(true);
    expect(bodyMatcher('{}')(body)).toBe(true);
    expect(bodyMatcher('{"ship": {"name": "Comet"}}')(body)).toBe(false);
    expect(bodyMatcher('{"ship": {"crew": "3"}}')(body)).toBe(false);
    expect(bodyMatcher('{"tags": ["a"]}')(body)).toBe(false);
    expect(bodyMatcher('{"missing": null}')(body)).toBe(false);
    expect(bodyMatcher('["a"]')('["a"]')).toBe(true);
    expect(bodyMatcher('{"a": 1}')('not json {"a": 1}')).toBe(false);
    expect(bodyMatcher('{"a": 1}')(null)).toBe(false);
  });

  it('takes any other text as a substring of the body as sent', () => {
    expect(bodyMatcher('Nomad')(body)).toBe(true);
    expect(bodyMatcher('"crew":3')(body)).toBe(true);
    expect(bodyMatcher('Comet')(body)).toBe(false);
    expect(bodyMatcher('not {json')('x not {json y')).toBe(true);
    expect(bodyMatcher('Nomad')(null)).toBe(false);
  });

  it.each([
    ['{bad', '"b" at position 1'],
    ['[1,', 'the end at position 3'],
    [' {"ship": }', '"}" at position 10'],
    ['{"a": 1} x', '"x" at position 9'],
    ['[tru]', '"t" at position 1'],
  ])('refuses %j, which starts like JSON and does not parse, with a 400 naming where it breaks', (pattern, where) => {
    expect(() => bodyMatcher(pattern)).toThrow(
      new ApiError(
        400,
        `query bodyMatches starts with { or [ but is not JSON: ${where} (counting from 0) cannot go on; send valid JSON, or text that does not start with { or [`,
      ),
    );
  });

  it('refuses a pattern longer than 2,048 characters with a 400', () => {
    expect(() => bodyMatcher('x'.repeat(2049))).toThrow(ApiError);
  });
});
