import { isJsonObject } from '../body.js';
import type { UserRoute } from './user-route.js';

/**
 * What the routes' recorded answers say of each object they hold with an `id`: the sectors list names sector 13
 * "Sirius" though no answer of the sector route was recorded for it. A generalised answer (an id the recording
 * never saw, answered as its neighbour was) takes from here the fields the recording knows of that id, so that
 * sector 13 answers "Sirius" and not its neighbour's name.
 */

type Json = Readonly<Record<string, unknown>>;

interface KnownObject {
  /** The key the object, or the array holding it, was under: `sectors`. */
  parent: string | undefined;
  /** Its literal fields, its id aside. */
  fields: Json;
}

const isLiteral = (value: unknown) =>
  typeof value === 'number' || typeof value === 'boolean' || value === null || (typeof value === 'string' && !value.includes('{{'));
const isId = (value: unknown): value is string | number => (typeof value === 'string' && value !== '' && !value.includes('{{')) || Number.isInteger(value);
/** `sectors` and `sector` name one kind. */
const kindOf = (key: string | undefined) => key?.toLowerCase().replace(/ies$/, 'y').replace(/s$/, '');

/** Objects of the routes' answers by id; at most this many, the first kept: a config's answers are few, and bounded by its file. */
const MAX_KNOWN = 10_000;

export class KnownObjects {
  readonly #byId = new Map<string, KnownObject[]>();
  #count = 0;

  constructor(routes: readonly UserRoute[]) {
    for (const route of routes) {
      for (const answer of [route, ...(route.answers ?? [])]) {
        this.#note(answer.response, undefined);
        this.#note(answer.body, undefined);
      }
    }
  }

  #note(value: unknown, parent: string | undefined): void {
    if (Array.isArray(value)) {
      for (const item of value) this.#note(item, parent);
      return;
    }
    if (!isJsonObject(value)) return;
    const id = value['id'];
    if (isId(id) && this.#count < MAX_KNOWN) {
      const fields = Object.fromEntries(Object.entries(value).filter(([key, item]) => key !== 'id' && isLiteral(item)));
      if (Object.keys(fields).length > 0) {
        this.#byId.set(String(id), [...(this.#byId.get(String(id)) ?? []), { parent, fields }]);
        this.#count++;
      }
    }
    for (const [key, item] of Object.entries(value)) this.#note(item, key);
  }

  /**
   * The known object an answer's object of this id and these keys is: the one sharing most of its keys, of the
   * same kind (`sector` of `sectors`) first; none where two such differ.
   */
  #knownFor(id: string, keys: readonly string[], parent: string | undefined): Json | undefined {
    const ranked = (this.#byId.get(id) ?? [])
      .map((known) => ({
        known,
        shared: keys.filter((key) => key !== 'id' && Object.hasOwn(known.fields, key)),
        sameKind: kindOf(known.parent) === kindOf(parent),
      }))
      .filter(({ shared }) => shared.length > 0)
      .sort((a, b) => Number(b.sameKind) - Number(a.sameKind) || b.shared.length - a.shared.length);
    const [best, next] = ranked;
    if (best === undefined) return undefined;
    const tied = next !== undefined && next.sameKind === best.sameKind && next.shared.length === best.shared.length;
    if (tied && best.shared.some((key) => JSON.stringify(next.known.fields[key]) !== JSON.stringify(best.known.fields[key]))) return undefined;
    return Object.fromEntries(best.shared.map((key) => [key, best.known.fields[key]]));
  }

  /** The answer with each object whose id the request sent given what the recording knows of that id. */
  fill(value: unknown, ids: ReadonlySet<string>, parent?: string): unknown {
    if (Array.isArray(value)) return value.map((item) => this.fill(item, ids, parent));
    if (!isJsonObject(value)) return value;
    const filled = Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.fill(item, ids, key)]));
    const id = value['id'];
    if (!isId(id) || !ids.has(String(id))) return filled;
    return { ...filled, ...this.#knownFor(String(id), Object.keys(value), parent) };
  }
}
