import type { RecordedRequest } from '../../src/spec/recorded-session.js';
import { mediaTypeOf, shapeDrifts, valueAt } from '../common/answer-shape.js';
import type { Exchange } from '../common/exchange.js';

/**
 * Where a deployment's answer departs from the recorded one in what a client reads: the status, the media
 * type, the rate-limit and action-point headers, each field's presence and JSON type, and the values the
 * recording shows following the request. Another value anywhere else (an id, a name) is no drift, nor a field added.
 */
export interface Drift {
  /** A JSON Pointer of the answer, or `status`, `content-type`, `header <name>`. */
  where: string;
  recorded: string;
  now: string;
}

/** A 304 answered a client's revalidation of what a 200 gave it: the run sends no validator, and gets the 200. */
const statusClass = (status: number) => (status === 304 ? 2 : Math.floor(status / 100));

/** The same status, a 304 standing for the 200 it revalidated. */
export const sameStatus = (recorded: number, now: number) =>
  recorded === now || (statusClass(recorded) === statusClass(now) && (recorded === 304 || now === 304));

/** A pointer as a finding names it: the root is `/`. */
const shown = (pointer: string) => (pointer === '' ? '/' : pointer);

/** The value a `follows` expression names (`query.id | number` reads `query.id`). */
const sourceOf = (expression: string) => expression.split('|')[0]!.trim();

export function driftsOf(recorded: RecordedRequest, exchange: Exchange, sent: ReadonlyMap<string, unknown>): Drift[] {
  if (!sameStatus(recorded.status, exchange.status)) return [{ where: 'status', recorded: String(recorded.status), now: String(exchange.status) }];
  // A revalidation's 304 has no body to compare, nor the 200 that stands for it.
  if (recorded.status === 304 || exchange.status === 304) return [];
  const drifts: Drift[] = [];
  const contentType = mediaTypeOf(exchange);
  if (recorded.contentType !== undefined && contentType !== recorded.contentType)
    drifts.push({ where: 'content-type', recorded: recorded.contentType, now: contentType ?? 'none' });
  for (const name of recorded.headers ?? [])
    if (exchange.headers[name] === undefined) drifts.push({ where: `header ${name}`, recorded: 'present', now: 'missing' });
  if (recorded.fields === undefined) return drifts;
  if (exchange.body === undefined) {
    const now = exchange.text === '' ? 'empty' : 'not JSON';
    return [...drifts, { where: '/', recorded: recorded.fields[''] ?? 'JSON', now }];
  }
  for (const { pointer, recorded: was, now } of shapeDrifts(recorded.fields, exchange.body)) drifts.push({ where: shown(pointer), recorded: was, now });
  for (const [pointer, expression] of Object.entries(recorded.follows ?? {})) {
    const answered = valueAt(exchange.body, pointer);
    const source = sourceOf(expression);
    if (answered === undefined || !sent.has(source)) continue;
    const value = sent.get(source);
    if (String(answered) !== String(value))
      drifts.push({ where: shown(pointer), recorded: `follows ${source} (${JSON.stringify(value)} sent)`, now: JSON.stringify(answered) });
  }
  return drifts;
}
