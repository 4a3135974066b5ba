import { ApiError } from '../errors.js';

/** A pattern is matched against every entry a listing or count reads: bounded as the path pattern is. */
const MAX_BODY_PATTERN_LENGTH = 2048;

/** Whether `actual` holds `pattern`: an object each of the pattern's fields (any others beside), an array element by element, else equal. */
function holds(actual: unknown, pattern: unknown): boolean {
  if (Array.isArray(pattern)) return Array.isArray(actual) && actual.length === pattern.length && pattern.every((item, index) => holds(actual[index], item));
  if (typeof pattern === 'object' && pattern !== null) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return false;
    return Object.entries(pattern).every(([key, value]) => Object.hasOwn(actual, key) && holds((actual as Record<string, unknown>)[key], value));
  }
  return actual === pattern;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const JSON_NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
const JSON_SPACE = /[ \t\n\r]*/y;
/** A string: no quote, backslash or control character but escaped. */
const JSON_STRING = /"([^"\\\p{Cc}]|\\(["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/uy;
const JSON_WORD = /true|false|null/y;

/**
 * Where text that JSON.parse refused stops being JSON: the offset of the first character that cannot go on, its
 * length where it ends too soon. V8's messages name it for some mistakes only (not for an unexpected token).
 */
function jsonErrorOffset(text: string): number {
  let at = 0;
  /** Moves past what `pattern` matches at the offset, or throws the offset. */
  const take = (pattern: RegExp): void => {
    pattern.lastIndex = at;
    if (!pattern.test(text)) throw at;
    at = pattern.lastIndex;
  };
  const takeChar = (char: string): void => {
    if (text[at] !== char) throw at;
    at++;
  };
  /** An object's or array's items up to `close`, each read by `item`. */
  const items = (close: string, item: () => void): void => {
    at++;
    take(JSON_SPACE);
    if (text[at] === close) {
      at++;
      return;
    }
    for (;;) {
      item();
      take(JSON_SPACE);
      if (text[at] === close) {
        at++;
        return;
      }
      takeChar(',');
    }
  };
  const member = (): void => {
    take(JSON_SPACE);
    take(JSON_STRING);
    take(JSON_SPACE);
    takeChar(':');
    value();
  };
  const value = (): void => {
    take(JSON_SPACE);
    const first = text[at];
    if (first === '{') items('}', member);
    else if (first === '[') items(']', value);
    else if (first === '"') take(JSON_STRING);
    else if (first === '-' || (first !== undefined && first >= '0' && first <= '9')) take(JSON_NUMBER);
    else take(JSON_WORD);
  };
  try {
    value();
    take(JSON_SPACE);
    return at;
  } catch (offset) {
    return offset as number;
  }
}

/** The pattern as JSON; a pattern that starts like it and does not parse is a mistake, named with where it breaks. */
function jsonPattern(pattern: string): unknown {
  try {
    return JSON.parse(pattern);
  } catch {
    // Taken as text it would match next to nothing, silently: `{bad` or `[1,` is a JSON subset mistyped.
    const offset = jsonErrorOffset(pattern);
    const found = offset < pattern.length ? `${JSON.stringify(pattern[offset])}` : 'the end';
    throw new ApiError(
      400,
      `query bodyMatches starts with { or [ but is not JSON: ${found} at position ${offset} (counting from 0) cannot go on; send valid JSON, or text that does not start with { or [`,
    );
  }
}

/**
 * The `bodyMatches` filter of the journal: a pattern that starts with `{` or `[` is JSON, a subset the body, read
 * as JSON, must hold (`{"ship": {"name": "Nomad"}}`); any other text must occur in the body as sent (a body cut at
 * its bound is not JSON).
 */
export function bodyMatcher(pattern: string): (body: string | null) => boolean {
  if (pattern.length > MAX_BODY_PATTERN_LENGTH) throw new ApiError(400, `query bodyMatches must be at most ${MAX_BODY_PATTERN_LENGTH} characters`);
  if (!/^\s*[[{]/.test(pattern)) return (body) => body?.includes(pattern) === true;
  const json = jsonPattern(pattern);
  return (body) => body !== null && holds(parsed(body), json);
}
