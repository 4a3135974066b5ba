import { ApiError } from '../errors.js';
import type { Player } from '../store.js';
import type { CompiledAlternative, CompiledAnswer, CompiledUserRoute } from './compile-routes.js';
import type { TemplateScope } from './template.js';

/** Callers of a public route whose turns are remembered; the oldest is let go first (its turns start again). */
const MAX_PUBLIC_CALLERS = 10_000;

/** JSON with sorted keys, so that two values compare by content. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What the route's answers are told apart by, for the 404 when none holds: `query id, body kind`. */
function conditionNames(route: CompiledUserRoute): string {
  const names = new Set<string>();
  for (const { when } of route.answers) {
    for (const name of Object.keys(when.params)) names.add(`path :${name}`);
    for (const name of Object.keys(when.query)) names.add(`query ${name}`);
    for (const name of Object.keys(when.body)) names.add(`body ${name}`);
  }
  return [...names].join(', ');
}

/** The answer chosen for a request, and the turn it took when it is one of several with the same conditions. */
export interface ChosenAnswer {
  answer: CompiledAnswer;
  /** Counts this turn as served; called whatever the answer's status. */
  served: () => void;
  /** When no answer's conditions held: the recorded values of the answer given instead (`query id=1`). */
  generalisedFrom?: string;
  /** And the values the request sent in their place, as text (`10`). */
  sentValues?: ReadonlySet<string>;
}

type Scope = Pick<TemplateScope, 'params' | 'query' | 'body'>;

/** Each condition of an answer against the request, in turn: whether the request sent it, and with the recorded value. */
function* conditions(when: CompiledAlternative['when'], scope: Scope) {
  for (const [name, value] of Object.entries(when.params))
    yield { label: `path :${name}`, wanted: value, given: scope.params[name], present: scope.params[name] !== undefined, equal: scope.params[name] === value };
  for (const [name, value] of Object.entries(when.query))
    yield { label: `query ${name}`, wanted: value, given: scope.query[name], present: Object.hasOwn(scope.query, name), equal: scope.query[name] === value };
  for (const [name, value] of Object.entries(when.body)) {
    const present = Object.hasOwn(scope.body, name);
    yield { label: `body ${name}`, wanted: value, given: scope.body[name], present, equal: present && canonical(scope.body[name]) === canonical(value) };
  }
}

/** Every condition of an answer holds: the request sent each, with its recorded value (the first that does not ends it). */
function conditionsHold(when: CompiledAlternative['when'], scope: Scope): boolean {
  for (const { present, equal } of conditions(when, scope)) if (!present || !equal) return false;
  return true;
}

const shown = (value: unknown) => (typeof value === 'string' ? value : canonical(value));

/** Each condition of an answer against the request: held, sent with another value (`query id=1`, and the request's), or not sent. */
function compared(when: CompiledAlternative['when'], scope: Scope) {
  let held = 0;
  const recorded: string[] = [];
  const sent: string[] = [];
  const values = new Set<string>();
  let missing = false;
  for (const { label, wanted, given, present, equal } of conditions(when, scope)) {
    if (!present) missing = true;
    else if (equal) held++;
    else {
      recorded.push(`${label}=${shown(wanted)}`);
      sent.push(`${label}=${shown(given)}`);
      values.add(shown(given));
    }
  }
  return { held, recorded: recorded.join(', '), sent: sent.join(', '), values, missing };
}

/** Printable ASCII, as a header value must be: anything else as a \u escape. */
const headerSafe = (text: string) => text.replace(/[^\x20-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * Chooses among a route's `answers`: those whose conditions all hold, the most specific first; among several with
 * the same conditions, the caller's next turn (per player, or per client address on a public route), the last one
 * repeating. Without one that holds, the route's own answer, else one generalised from a recorded answer (a value
 * the recording never saw answered as its neighbour was, its templates reading the request), or, strict, 404.
 */
export class AnswerChooser {
  readonly #route: CompiledUserRoute;
  readonly #publicTurns = new Map<string, number>();

  constructor(route: CompiledUserRoute) {
    this.#route = route;
  }

  /**
   * `strict`: a request none of the answers holds for is a 404 (without an answer of the route's own); otherwise it
   * is answered by the answer whose conditions it sent, most of them with the recorded values, a success first.
   */
  choose(scope: TemplateScope, player: Player | undefined, ip: string, strict: boolean): ChosenAnswer {
    const route = this.#route;
    const holds = route.answers.filter(({ when }) => conditionsHold(when, scope));
    let first = holds[0];
    let generalisedFrom: string | undefined;
    let sentValues: ReadonlySet<string> | undefined;
    if (first === undefined) {
      if (route.answer !== undefined) return { answer: route.answer, served: () => {} };
      const nearest = strict ? undefined : this.#nearest(scope);
      if (nearest === undefined)
        throw new ApiError(404, `No answer of ${route.id} matches this request: its answers are told apart by ${conditionNames(route)}`);
      first = nearest.alternative;
      generalisedFrom = headerSafe(nearest.recorded);
      sentValues = nearest.values;
      route.generalised.add(headerSafe(nearest.sent), generalisedFrom);
    }
    const turns = route.answers.filter((alternative) => alternative.key === first.key);
    const generalised = generalisedFrom === undefined ? {} : { generalisedFrom, ...(sentValues === undefined ? {} : { sentValues }) };
    if (turns.length === 1) return { answer: first.answer, served: () => {}, ...generalised };
    const turnKey = `${route.id} ${first.key}`;
    const taken = player === undefined ? (this.#publicTurns.get(`${ip} ${first.key}`) ?? 0) : (player.answersServed?.[turnKey] ?? 0);
    const answer = turns[Math.min(taken, turns.length - 1)]!.answer;
    const served = () => {
      if (taken >= turns.length - 1) return;
      if (player !== undefined) player.answersServed = { ...player.answersServed, [turnKey]: taken + 1 };
      else this.#servePublic(`${ip} ${first.key}`, taken + 1);
    };
    return { answer, served, ...generalised };
  }

  /** The answer a request none holds for is given: one whose every condition it sent, the most held, a success before a refusal. */
  #nearest(scope: TemplateScope): { alternative: CompiledAlternative; recorded: string; sent: string; values: ReadonlySet<string> } | undefined {
    let best: { alternative: CompiledAlternative; recorded: string; sent: string; values: ReadonlySet<string>; rank: number } | undefined;
    for (const alternative of this.#route.answers) {
      const { held, recorded, sent, values, missing } = compared(alternative.when, scope);
      if (missing || recorded === '') continue;
      const status = Number(alternative.answer.status(scope));
      const rank = held * 2 + (status < 400 ? 1 : 0);
      if (best === undefined || rank > best.rank) best = { alternative, recorded, sent, values, rank };
    }
    return best;
  }

  #servePublic(key: string, taken: number): void {
    this.#publicTurns.delete(key);
    this.#publicTurns.set(key, taken);
    if (this.#publicTurns.size > MAX_PUBLIC_CALLERS) this.#publicTurns.delete(this.#publicTurns.keys().next().value!);
  }
}
