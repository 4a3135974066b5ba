import { UUID } from '../rules/formats.js';
import { type Exchange, isObject } from '../common/exchange.js';
import { NUMERIC } from './route-pattern.js';
import { TOKEN_FIELD } from './traffic-identities.js';

/** What must hold of a request for an alternative to answer it: path and query parameters (as strings) and body fields (as JSON values). */
export interface AnswerCondition {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
}

/** One recorded request of a route: what it asked (its query, its body's fields) and what it got, as one comparable key. */
export interface AskedAndAnswered<A> {
  /** The path's parameters, decoded. */
  params: Readonly<Record<string, string>>;
  query: Readonly<Record<string, string>>;
  body: Readonly<Record<string, unknown>> | undefined;
  /** The answer as the recording writes it. */
  answer: A;
  /** The answer as text, so that two compare by content. */
  key: string;
  /** Every string and number of the answer, to tell a parameter it echoes. */
  echoed: ReadonlySet<string>;
}

export interface Alternative<A> {
  when?: AnswerCondition;
  answer: A;
}

/** Beyond this many answers to one request in a row, the rest of a long session's repeats are left out (the last is kept). */
export const MAX_ANSWERS_IN_ORDER = 100;

const SECRET_NAME = /otp|codes?$|e-?mail/i;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The query of an exchange's URL, the first value of each name. */
export function queryOf(exchange: Exchange): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of new URL(exchange.url, 'http://path.invalid').searchParams) query[name] ??= value;
  return query;
}

/** Every string and number in a value, as text. */
export function echoedValues(value: unknown, into = new Set<string>()): Set<string> {
  if (typeof value === 'string' || typeof value === 'number') into.add(String(value));
  else if (Array.isArray(value)) for (const item of value) echoedValues(item, into);
  else if (isObject(value)) for (const item of Object.values(value)) echoedValues(item, into);
  return into;
}

const text = (value: unknown) => JSON.stringify(value);

type Source = 'params' | 'query' | 'body';
const SOURCES: readonly Source[] = ['params', 'query', 'body'];

const valuesOf = <A>(each: AskedAndAnswered<A>, source: Source): Readonly<Record<string, unknown>> => each[source] ?? {};

/**
 * The path parameters, query parameters and body fields that select a route's answer: those whose value differs
 * between the route's requests. A path segment names a resource: it selects as a number or a UUID that a replay
 * sends again (not the id of the player or its ship, which the mock gives anew). A query parameter or a body
 * field selects when its value comes back in the answer (`?id=13` → `sector.id: 13`) or repeats across the
 * session: a nonce, new on each request and never answered back, selects nothing. Secrets and addresses never
 * become a condition, since a condition is written as it was sent.
 */
function selectingNames<A>(recorded: readonly AskedAndAnswered<A>[], source: Source, unstable: ReadonlySet<string>): string[] {
  const names = new Set(recorded.flatMap((each) => Object.keys(valuesOf(each, source))));
  return [...names].filter((name) => {
    if (TOKEN_FIELD.test(name) || SECRET_NAME.test(name)) return false;
    const values = recorded.map((each) => valuesOf(each, source)[name]);
    if (values.some((value) => typeof value === 'string' && (EMAIL.test(value) || unstable.has(value)))) return false;
    const distinct = new Set(values.map(text));
    if (distinct.size < 2) return false;
    if (source === 'params') return values.every((value) => typeof value === 'string' && (NUMERIC.test(value) || UUID.test(value)));
    const echoed = recorded.some((each, index) => values[index] !== undefined && each.echoed.has(String(values[index])));
    return echoed || distinct.size < values.length;
  });
}

function conditionOf<A>(each: AskedAndAnswered<A>, selecting: Readonly<Record<Source, readonly string[]>>): AnswerCondition | undefined {
  const when: AnswerCondition = {};
  for (const source of SOURCES) {
    const values = valuesOf(each, source);
    const held = selecting[source].filter((name) => values[name] !== undefined);
    if (held.length > 0) (when as Record<Source, Record<string, unknown>>)[source] = Object.fromEntries(held.map((name) => [name, values[name]]));
  }
  return Object.keys(when).length > 0 ? when : undefined;
}

/**
 * A route's recorded answers as the alternatives the mock replays: one per distinct request (by the path
 * parameters, query parameters and body fields that select the answer), and where one request got different answers over the session, each in
 * the order it came (the mock serves the n-th to the n-th such call and repeats the last). `undefined` when every
 * request got the same answer: the route answers it alone.
 */
export function alternativesOf<A>(
  recorded: readonly AskedAndAnswered<A>[],
  unstable: ReadonlySet<string>,
): { alternatives: Alternative<A>[]; cut: number } | undefined {
  if (new Set(recorded.map((each) => each.key)).size < 2) return undefined;
  const selecting = {
    params: selectingNames(recorded, 'params', unstable),
    query: selectingNames(recorded, 'query', unstable),
    body: selectingNames(recorded, 'body', unstable),
  };
  const groups = new Map<string, { when: AnswerCondition | undefined; answers: AskedAndAnswered<A>[] }>();
  for (const each of recorded) {
    const when = conditionOf(each, selecting);
    const id = text(when ?? null);
    const group = groups.get(id) ?? { when, answers: [] };
    group.answers.push(each);
    groups.set(id, group);
  }
  let cut = 0;
  const alternatives = [...groups.values()].flatMap(({ when, answers }) => {
    // The last answer repeats in the mock: its repeats at the end need not be written.
    let inOrder = answers;
    while (inOrder.length > 1 && inOrder.at(-1)!.key === inOrder.at(-2)!.key) inOrder = inOrder.slice(0, -1);
    if (inOrder.length > MAX_ANSWERS_IN_ORDER) {
      cut += inOrder.length - MAX_ANSWERS_IN_ORDER;
      inOrder = [...inOrder.slice(0, MAX_ANSWERS_IN_ORDER - 1), inOrder.at(-1)!];
    }
    return inOrder.map((each) => ({ ...(when === undefined ? {} : { when }), answer: each.answer }));
  });
  return { alternatives, cut };
}
