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

/**
 * The `bodyMatches` filter of the journal: a JSON object or array is a subset the body, read as JSON, must hold
 * (`{"ship": {"name": "Nomad"}}`); any other text must occur in the body as sent (a body cut at its bound is not JSON).
 */
export function bodyMatcher(pattern: string): (body: string | null) => boolean {
  if (pattern.length > MAX_BODY_PATTERN_LENGTH) throw new ApiError(400, `query bodyMatches must be at most ${MAX_BODY_PATTERN_LENGTH} characters`);
  const json = /^\s*[[{]/.test(pattern) ? parsed(pattern) : undefined;
  if (json === undefined) return (body) => body?.includes(pattern) === true;
  return (body) => body !== null && holds(parsed(body), json);
}
