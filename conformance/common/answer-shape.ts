import type { JsonKind } from '../../src/spec/recorded-session.js';
import { type Exchange, isObject } from './exchange.js';

/**
 * The shape of a JSON answer, as a client reading it depends on it: the type at each JSON Pointer, `*` for every
 * item of an array. Values are left out: another id or name is the same shape.
 */

export type Shape = Record<string, JsonKind>;

/** The pointer's segment for a key (RFC 6901: `~` and `/` escaped). */
export const pointerSegment = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');
const unescaped = (segment: string) => segment.replaceAll('~1', '/').replaceAll('~0', '~');

export function kindOf(value: unknown): JsonKind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (isObject(value)) return 'object';
  const kind = typeof value;
  return kind === 'string' || kind === 'number' || kind === 'boolean' ? kind : 'null';
}

/**
 * The shape the items of an array share: a field every item has, with the one type they give it (null goes
 * with any type: a field null in one item is not another type).
 */
function itemsShape(items: readonly Shape[]): Shape {
  const [first, ...others] = items;
  if (first === undefined) return {};
  const shared: Shape = {};
  for (const pointer of Object.keys(first)) {
    if (!others.every((other) => Object.hasOwn(other, pointer))) continue;
    const kinds = new Set(items.map((item) => item[pointer]!).filter((kind) => kind !== 'null'));
    if (kinds.size > 1) continue;
    shared[pointer] = kinds.size === 0 ? 'null' : [...kinds][0]!;
  }
  return shared;
}

/** A key that names data rather than a field: an id, a UUID or an address (a map of players by id): another session has others. */
const DATA_KEY = /^\d+$|^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$|@/i;

function shapeInto(value: unknown, pointer: string, into: Shape, isData: (key: string) => boolean): void {
  into[pointer] = kindOf(value);
  if (Array.isArray(value)) {
    const items = value.map((item) => {
      const itemShape: Shape = {};
      shapeInto(item, `${pointer}/*`, itemShape, isData);
      return itemShape;
    });
    Object.assign(into, itemsShape(items));
  } else if (isObject(value)) {
    for (const [key, item] of Object.entries(value))
      if (!DATA_KEY.test(key) && !isData(key)) shapeInto(item, `${pointer}/${pointerSegment(key)}`, into, isData);
  }
}

/**
 * The type at each pointer of `value`, the root's under `''`; keys that name data (ids, UUIDs, addresses, and
 * those `isData` says are) are left out with what is under them.
 */
export function shapeOf(value: unknown, isData: (key: string) => boolean = () => false): Shape {
  const shape: Shape = {};
  shapeInto(value, '', shape, isData);
  return shape;
}

/** A place where an answer's shape departs from a recorded one: the pointer, and what it was and is now. */
export interface ShapeDrift {
  pointer: string;
  recorded: JsonKind;
  /** `missing` where the field is gone. */
  now: JsonKind | 'missing';
}

type Reached = { kind: 'found'; value: unknown } | { kind: 'missing' } | { kind: 'elsewhere' };

/** What stands at `pointer` in `value`, at every item where it passes a `*`: missing only where its last key is gone. */
function reach(value: unknown, segments: readonly string[]): Reached[] {
  const [segment, ...rest] = segments;
  if (segment === undefined) return [{ kind: 'found', value }];
  if (segment === '*') return Array.isArray(value) ? value.flatMap((item) => reach(item, rest)) : [{ kind: 'elsewhere' }];
  if (!isObject(value)) return [{ kind: 'elsewhere' }];
  const key = unescaped(segment);
  if (!Object.hasOwn(value, key)) return [{ kind: rest.length === 0 ? 'missing' : 'elsewhere' }];
  return reach(value[key], rest);
}

/**
 * Where `value` departs from the recorded `shape`: a field gone (reported where it went, not again for each field
 * under it; in array items, gone from every item), or of another type. Null is no departure either way (a field the client must already take empty), a
 * field added none, and a place whose parent changed type is reported at the parent only.
 */
export function shapeDrifts(shape: Readonly<Shape>, value: unknown): ShapeDrift[] {
  const drifts: ShapeDrift[] = [];
  for (const [pointer, recorded] of Object.entries(shape)) {
    const reached = reach(value, pointer === '' ? [] : pointer.slice(1).split('/'));
    // In array items, a field is gone when no item has it: items the recording never saw may lack one it always had.
    const gone = pointer.includes('/*')
      ? reached.length > 0 && reached.every((each) => each.kind !== 'found') && reached.some((each) => each.kind === 'missing')
      : reached.some((each) => each.kind === 'missing');
    if (gone) {
      drifts.push({ pointer, recorded, now: 'missing' });
      continue;
    }
    if (recorded === 'null') continue;
    const other = reached.flatMap((each) => (each.kind === 'found' ? [kindOf(each.value)] : [])).find((kind) => kind !== 'null' && kind !== recorded);
    if (other !== undefined) drifts.push({ pointer, recorded, now: other });
  }
  return drifts;
}

/** The value at a pointer without `*` (an echo's place), or undefined where there is none. */
export function valueAt(value: unknown, pointer: string): unknown {
  let here = value;
  for (const segment of pointer === '' ? [] : pointer.slice(1).split('/')) {
    if (Array.isArray(here)) here = here[Number(segment)];
    else if (isObject(here)) here = here[unescaped(segment)];
    else return undefined;
  }
  return here;
}

/** The answer's media type, lower case and without its parameters (`application/json`), or undefined without one. */
export function mediaTypeOf(exchange: Exchange): string | undefined {
  const type = exchange.headers['content-type'];
  return type === undefined ? undefined : (type.split(';')[0] ?? '').trim().toLowerCase();
}
