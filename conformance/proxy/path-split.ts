import { isObject } from '../exchange.js';
import type { RouteParam } from './route-pattern.js';

const NUMERIC = /^\d+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What splitting needs of a recorded request: its path parameters and the body it was answered. */
export interface ParamSample {
  params: readonly RouteParam[];
  body: unknown;
}

/**
 * The answer with each string equal to one of its parameters written as the parameter's name, as a template
 * gives it back (`{{params.id}}`): two answers that differ only there agree. A number stays, as a template gives
 * a parameter as a string only.
 */
function withoutParams(value: unknown, params: readonly RouteParam[]): unknown {
  if (typeof value === 'string') return params.find((param) => param.value === value)?.name ?? value;
  if (Array.isArray(value)) return value.map((item) => withoutParams(item, params));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withoutParams(item, params)]));
  return value;
}

/**
 * The path parameters that select a route's answer, which a mock route can only tell apart as paths of their own
 * (its answers are told apart by query and body): those whose values differ where the answers differ (beyond
 * echoing the parameter as text). A path segment names a resource, not a nonce. Only ids that stay the same in a
 * replay: numbers and UUIDs, never a token or the id of the player or its ship, which the mock gives anew.
 */
export function selectingParams(samples: readonly ParamSample[], unstable: ReadonlySet<string>): string[] {
  const answers = new Set(samples.map((sample) => JSON.stringify(withoutParams(sample.body, sample.params))));
  if (answers.size < 2) return [];
  const names = [...new Set(samples.flatMap((sample) => sample.params.map((param) => param.name)))];
  return names.filter((name) => {
    const values = samples.map((sample) => sample.params.find((param) => param.name === name)?.value);
    if (values.some((value) => value === undefined || unstable.has(value) || !(NUMERIC.test(value) || UUID.test(value)))) return false;
    return new Set(values).size > 1;
  });
}

/** The route path with the named parameters written as the values this request sent: `/api/sector/:sectorId` → `/api/sector/3`. */
export function literalPath(path: string, params: readonly RouteParam[], names: readonly string[]): string {
  return path
    .split('/')
    .map((segment) => {
      const param = segment.startsWith(':') ? params.find((each) => each.name === segment.slice(1)) : undefined;
      return param !== undefined && names.includes(param.name) ? encodeURIComponent(param.value) : segment;
    })
    .join('/');
}
