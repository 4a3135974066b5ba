import { ApiError } from '../errors.js';
import type { Player } from '../store.js';
import type { CompiledAnswer, CompiledUserRoute } from './compile-routes.js';
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
}

/**
 * Chooses among a route's `answers`: those whose conditions all hold, the most specific first; among several with
 * the same conditions, the caller's next turn (per player, or per client address on a public route), the last one
 * repeating. Without one that holds, the route's own answer, or 404.
 */
export class AnswerChooser {
  readonly #route: CompiledUserRoute;
  readonly #publicTurns = new Map<string, number>();

  constructor(route: CompiledUserRoute) {
    this.#route = route;
  }

  choose(scope: Pick<TemplateScope, 'params' | 'query' | 'body'>, player: Player | undefined, ip: string): ChosenAnswer {
    const route = this.#route;
    const holds = route.answers.filter(({ when }) => {
      for (const [name, value] of Object.entries(when.params)) if (scope.params[name] !== value) return false;
      for (const [name, value] of Object.entries(when.query)) if (scope.query[name] !== value) return false;
      for (const [name, value] of Object.entries(when.body))
        if (!Object.hasOwn(scope.body, name) || canonical(scope.body[name]) !== canonical(value)) return false;
      return true;
    });
    const first = holds[0];
    if (first === undefined) {
      if (route.answer !== undefined) return { answer: route.answer, served: () => {} };
      throw new ApiError(404, `No answer of ${route.id} matches this request: its answers are told apart by ${conditionNames(route)}`);
    }
    const turns = holds.filter((alternative) => alternative.key === first.key);
    if (turns.length === 1) return { answer: first.answer, served: () => {} };
    const turnKey = `${route.id} ${first.key}`;
    const taken = player === undefined ? (this.#publicTurns.get(`${ip} ${first.key}`) ?? 0) : (player.answersServed?.[turnKey] ?? 0);
    const answer = turns[Math.min(taken, turns.length - 1)]!.answer;
    const served = () => {
      if (taken >= turns.length - 1) return;
      if (player !== undefined) player.answersServed = { ...player.answersServed, [turnKey]: taken + 1 };
      else this.#servePublic(`${ip} ${first.key}`, taken + 1);
    };
    return { answer, served };
  }

  #servePublic(key: string, taken: number): void {
    this.#publicTurns.delete(key);
    this.#publicTurns.set(key, taken);
    if (this.#publicTurns.size > MAX_PUBLIC_CALLERS) this.#publicTurns.delete(this.#publicTurns.keys().next().value!);
  }
}
