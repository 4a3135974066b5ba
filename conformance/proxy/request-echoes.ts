import { pointerSegment } from '../common/answer-shape.js';
import { isObject } from '../common/exchange.js';
import type { RouteParam } from './route-pattern.js';
import type { Ship } from './ship-state.js';

/**
 * What makes a recorded answer follow the request in a replay: the caller's ship where the answer carries it, and
 * each value the request sent (a path or query parameter, a body field) where the answer gives it back, written
 * as templates of the mock's ship and of the request instead of the values recorded.
 */

/** Marks, before the answer is templated and redacted, where the mock's ship (or one of its fields) is written. */
const SHIP_MARK = '\u0000ship\u0000';

/** The fields of an object that the ship read answered, when it carries most of them and no other ship's id. */
function callersShipFields(value: Readonly<Record<string, unknown>>, ship: Ship): string[] | undefined {
  const shipFields = Object.keys(ship).filter((field) => field !== 'id');
  if (Object.hasOwn(value, 'id') && JSON.stringify(value['id']) !== JSON.stringify(ship['id'])) return undefined;
  const shared = Object.keys(value).filter((field) => Object.hasOwn(ship, field));
  return shipFields.length > 0 && shared.filter((field) => field !== 'id').length * 2 > shipFields.length ? shared : undefined;
}

function markShip(value: unknown, ship: Ship, nested: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => markShip(item, ship, true));
  if (!isObject(value)) return value;
  const fields = nested ? callersShipFields(value, ship) : undefined;
  const marked = Object.entries(value).map(([key, item]) => [key, fields?.includes(key) ? `${SHIP_MARK}${key}` : markShip(item, ship, true)]);
  return Object.fromEntries(marked);
}

/**
 * The answer with the caller's ship marked: its `ship` whole where it is the ship held (the same id), else, in any
 * nested object carrying most of the ship's fields (a move answering part of the ship, without its id), each of
 * those fields. `withShipTemplates` turns the marks into `{{ship}}` and `{{ship.field}}` once the answer is templated.
 */
export function withShipMarked(body: Readonly<Record<string, unknown>>, ship: Ship | undefined): Readonly<Record<string, unknown>> {
  if (ship === undefined) return body;
  const answered = body['ship'];
  if (isObject(answered) && ship['id'] !== undefined && JSON.stringify(answered['id']) === JSON.stringify(ship['id'])) return { ...body, ship: SHIP_MARK };
  return markShip(body, ship, false) as Readonly<Record<string, unknown>>;
}

export function withShipTemplates(value: unknown): unknown {
  if (typeof value === 'string' && value.startsWith(SHIP_MARK)) {
    const field = value.slice(SHIP_MARK.length);
    return field === '' ? '{{ship}}' : `{{ship.${field}}}`;
  }
  if (Array.isArray(value)) return value.map(withShipTemplates);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withShipTemplates(item)]));
  return value;
}

/** What a request sent that its answer may give back. */
export interface RequestValues {
  params: readonly RouteParam[];
  query: Readonly<Record<string, string>>;
  body: Readonly<Record<string, unknown>> | undefined;
}

/** A value of the answer that the request sent: where it is (a JSON Pointer), the template giving it back, and why to trust it. */
export interface Echo {
  at: string;
  expression: string;
  /** The request's value, as JSON: two different ones show the answer following the request. */
  sent: string;
  /** The answer's field is named as the request's value is (`id` ← `?id=`, `sector.id` ← `sectorId`). */
  named: boolean;
  /** Not a value an answer holds by coincidence as often as not: a boolean, a number of one digit, one character. */
  distinctive: boolean;
}

/** A name as the request and the answer may both write it: `sector_id`, `sectorId` and `SectorID` alike. */
export const normalised = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The answer's field named as the request's value: the same name, or `id` in an object named as its `…Id`. */
function sameName(key: string | undefined, parent: string | undefined, sent: string): boolean {
  if (key === undefined) return false;
  const [field, name] = [normalised(key), normalised(sent)];
  if (field === name || field === `${name}id` || name === `${field}id`) return true;
  return field === 'id' && parent !== undefined && name === `${normalised(parent).replace(/s$/, '')}id`;
}

function isDistinctive(value: string | number | boolean): boolean {
  if (typeof value === 'boolean') return false;
  if (typeof value === 'number') return !Number.isInteger(value) || Math.abs(value) >= 10;
  return value.length >= 2;
}

/** Each way the request sent `value`: the template that gives it back, with the name it was sent under. */
function sources(value: string | number | boolean, request: RequestValues): { expression: string; name: string; sent: string }[] {
  const found: { expression: string; name: string; sent: string }[] = [];
  const asText = (root: string, name: string, text: string) => {
    if (value === text) found.push({ expression: `${root}.${name}`, name, sent: JSON.stringify(text) });
    else if (typeof value === 'number' && String(value) === text) found.push({ expression: `${root}.${name} | number`, name, sent: JSON.stringify(text) });
  };
  for (const { name, value: text } of request.params) asText('params', name, text);
  for (const [name, text] of Object.entries(request.query)) asText('query', name, text);
  for (const [name, sent] of Object.entries(request.body ?? {})) {
    if (sent === value) found.push({ expression: `body.${name}`, name, sent: JSON.stringify(sent) });
  }
  return found;
}

const pointerOf = (keys: readonly string[]) => keys.map((key) => `/${pointerSegment(key)}`).join('');

/**
 * The values of a recorded answer (already templated: its templates are left alone) that its request sent: one
 * echo each, the source named like the answer's field first, else the one source of that value, none when several
 * could be.
 */
export function echoesOf(answer: unknown, request: RequestValues): Echo[] {
  const echoes: Echo[] = [];
  const visit = (value: unknown, keys: readonly string[], key: string | undefined, parent: string | undefined) => {
    if (Array.isArray(value)) for (const [index, item] of value.entries()) visit(item, [...keys, String(index)], key, parent);
    else if (isObject(value)) for (const [name, item] of Object.entries(value)) visit(item, [...keys, name], name, key);
    else if (typeof value === 'number' || typeof value === 'boolean' || (typeof value === 'string' && !value.includes('{{'))) {
      const found = sources(value, request);
      const named = found.filter((source) => sameName(key, parent, source.name));
      const chosen = named[0] ?? (found.length === 1 ? found[0] : undefined);
      if (chosen !== undefined)
        echoes.push({ at: pointerOf(keys), expression: chosen.expression, sent: chosen.sent, named: named.length > 0, distinctive: isDistinctive(value) });
    }
  };
  visit(answer, [], undefined, undefined);
  return echoes;
}

/** How trustedEchoes names an echo it trusts. */
export const echoKey = (echo: Echo) => `${echo.at} ${echo.expression}`;

/**
 * The echoes a route's answers are written with: named as the request's value, distinctive, or shown following
 * the request in two answers or more (a different value sent, the same place answering it).
 */
export function trustedEchoes(echoesByAnswer: readonly (readonly Echo[])[]): Set<string> {
  const sentValues = new Map<string, Set<string>>();
  for (const echo of echoesByAnswer.flat()) sentValues.set(echoKey(echo), (sentValues.get(echoKey(echo)) ?? new Set()).add(echo.sent));
  return new Set(
    echoesByAnswer
      .flat()
      .filter((echo) => echo.named || echo.distinctive || sentValues.get(echoKey(echo))!.size > 1)
      .map(echoKey),
  );
}

/** The answer with each trusted echo written as the template of the request's value. */
export function withEchoes(answer: unknown, echoes: readonly Echo[], trusted: ReadonlySet<string>): unknown {
  const templates = new Map(echoes.filter((echo) => trusted.has(echoKey(echo))).map((echo) => [echo.at, `{{${echo.expression}}}`]));
  if (templates.size === 0) return answer;
  const rewrite = (value: unknown, keys: readonly string[]): unknown => {
    const template = templates.get(pointerOf(keys));
    if (template !== undefined) return template;
    if (Array.isArray(value)) return value.map((item, index) => rewrite(item, [...keys, String(index)]));
    if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, rewrite(item, [...keys, name])]));
    return value;
  };
  return rewrite(answer, []);
}
