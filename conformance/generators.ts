import fc from 'fast-check';
import { COSTLY_PROPERTY_RUNS, isAuthPaced } from './auth-plan.js';
import type { ConformanceConfig } from './config.js';

/**
 * Options for one property of the run: the run's seed (so that --seed replays it; fast-check prints
 * seed and path on failure) and at most `cap` runs. A property whose runs cost auth requests (`costly`) runs
 * COSTLY_PROPERTY_RUNS times, and stops at its first failure instead of shrinking, since each shrink step is
 * another request.
 */
export function propertyOptions(config: ConformanceConfig, { cap = Number.POSITIVE_INFINITY, costly = false } = {}) {
  const costlyCap = costly ? COSTLY_PROPERTY_RUNS[isAuthPaced(config) ? 'authPaced' : 'default'] : Number.POSITIVE_INFINITY;
  return { seed: config.seed, numRuns: Math.max(1, Math.min(config.numRuns, cap, costlyCap)), ...(costly ? { endOnFailure: true } : {}) };
}

/** A path segment that URL resolution leaves alone (never `.` or `..`). */
const segment = fc.stringMatching(/^[A-Za-z0-9_~-]{1,12}$/);

/** Paths no server has: every one starts with a segment naming this suite. */
export const unknownPath = fc
  .tuple(fc.constantFrom('', '/api'), segment, fc.array(segment, { maxLength: 3 }), fc.option(fc.tuple(segment, segment), { nil: undefined }))
  .map(
    ([prefix, first, rest, query]) =>
      `${prefix}/conformance-no-such-route-${first}${rest.map((part) => `/${part}`).join('')}${query ? `?${query[0]}=${query[1]}` : ''}`,
  );

export const method = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE');

/** Accept headers a client may send; the body must be JSON whatever it asks for. */
export const accept = fc.constantFrom(undefined, 'application/json', '*/*', 'text/html', 'text/plain', 'application/json, text/plain, */*');

const isJsonObjectText = (text: string): boolean => {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
};

/** Request bodies that are not a JSON object: broken JSON, other text, or JSON of another type. */
export const malformedJsonBody = fc
  .oneof(
    fc.constantFrom('', '{', '{"name":', "{'name': 'Conformance'}", '{name: "Conformance"}', '[]', 'null', '"Conformance"', '{"name": "Conformance",}'),
    fc
      .json()
      .filter((text) => text.length > 1)
      .map((text) => text.slice(0, -1)),
    fc.string({ minLength: 1, maxLength: 64 }),
    fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify(value)),
  )
  .filter((text) => !isJsonObjectText(text));

/** Authorization values that carry no token the server issued. */
export const garbageAuthorization = fc.oneof(
  fc.uuid().map((uuid) => `Bearer ${uuid}`),
  fc.stringMatching(/^[\x21-\x7e]{1,64}$/).map((token) => `Bearer ${token}`),
  fc.stringMatching(/^[\x21-\x7e]{1,64}$/),
  fc.uuid().map((uuid) => `Token ${uuid}`),
  fc.constantFrom('Bearer', 'bearer', 'Bearer null', 'Bearer undefined', 'Basic Y29uZm9ybWFuY2U6Y29uZm9ybWFuY2U='),
);

const localPart = fc.stringMatching(/^[a-z0-9]{1,12}$/);
const domain = fc.tuple(fc.stringMatching(/^[a-z0-9]{1,12}$/), fc.constantFrom('com', 'org', 'net')).map(([name, tld]) => `${name}.${tld}`);

/** Strings no reading of "email address" accepts: no @, nothing before or after it, two of them, or a space. */
export const malformedEmail = fc.oneof(
  localPart,
  fc.tuple(localPart, domain).map(([local, host]) => `${local}.${host}`),
  domain.map((host) => `@${host}`),
  localPart.map((local) => `${local}@`),
  fc.tuple(localPart, localPart, domain).map(([a, b, host]) => `${a}@${b}@${host}`),
  fc.tuple(localPart, localPart, domain).map(([a, b, host]) => `${a} ${b}@${host}`),
  fc.tuple(localPart, localPart, domain).map(([local, a, host]) => `${local}@${a} ${host}`),
);

/** Domains on every common throwaway-address list. */
export const DISPOSABLE_DOMAINS = ['mailinator.com', 'guerrillamail.com'] as const;
