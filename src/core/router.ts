import { ApiError } from './errors.js';
import { allowedMethods, methodToServe } from './http.js';
import { type RoutePath, routePath } from './route-path.js';

/** What the router files a target under: a method and a path, `:name` segments standing for parameters. */
export interface RouterEntry<T> {
  readonly method: string;
  readonly path: string;
  readonly target: T;
  /** A parameter may match an empty segment (the dashboard page with a trailing slash); by default such a path is no route's. */
  readonly emptyParams?: boolean;
}

/** The targets of one path sent, by method, each with the parameters it reads from that path. */
export interface PathMatch<T> {
  readonly byMethod: ReadonlyMap<string, T>;
  params(target: T): Readonly<Record<string, string>>;
}

interface PatternGroup<T> {
  path: RoutePath;
  byMethod: Map<string, T>;
}

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

function literalSegments(path: RoutePath): number {
  return path.shape.split('/').filter((segment) => segment !== ':').length;
}

/** Adds each target of `from` whose method `to` does not have: the first one for a method stays. */
function addMissing<T>(to: Map<string, T>, from: ReadonlyMap<string, T>): void {
  for (const [method, target] of from) if (!to.has(method)) to.set(method, target);
}

/**
 * The service's router: one for the API's routes (the spec's, the mock's, the user's), one for the control API's,
 * mounted under its prefix.
 * Fixed paths are one Map lookup; patterns are tried only when it misses, the one with more literal segments
 * first. A fixed path that a pattern also matches gets the pattern's other methods when the table is built, so it
 * stays one lookup.
 */
export class Router<T> {
  readonly #exact = new Map<string, Map<string, T>>();
  readonly #patterns: PatternGroup<T>[];
  readonly #pathOf = new Map<T, RoutePath>();

  constructor(entries: Iterable<RouterEntry<T>>) {
    const groups = new Map<string, PatternGroup<T>>();
    for (const { method, path, target, emptyParams } of entries) {
      const compiled = routePath(path, emptyParams);
      if (compiled.params.length === 0) {
        const byMethod = this.#exact.get(path) ?? new Map<string, T>();
        this.#exact.set(path, byMethod);
        if (!byMethod.has(method)) byMethod.set(method, target);
        continue;
      }
      this.#pathOf.set(target, compiled);
      const group = groups.get(compiled.shape) ?? { path: compiled, byMethod: new Map<string, T>() };
      if (!group.byMethod.has(method)) group.byMethod.set(method, target);
      groups.set(compiled.shape, group);
    }
    this.#patterns = [...groups.values()].sort((a, b) => literalSegments(b.path) - literalSegments(a.path));
    for (const [path, byMethod] of this.#exact) {
      for (const group of this.#patterns) if (group.path.match(path) !== undefined) addMissing(byMethod, group.byMethod);
    }
  }

  /** The targets of `path` by method, or undefined when no route has this path. */
  match(path: string): PathMatch<T> | undefined {
    const exact = this.#exact.get(path);
    if (exact !== undefined) return { byMethod: exact, params: (target) => this.#paramsOf(target, path) };
    if (this.#patterns.length === 0) return undefined;
    let merged: Map<string, T> | undefined;
    for (const group of this.#patterns) {
      if (group.path.match(path) === undefined) continue;
      merged ??= new Map();
      addMissing(merged, group.byMethod);
    }
    return merged === undefined ? undefined : { byMethod: merged, params: (target) => this.#paramsOf(target, path) };
  }

  #paramsOf(target: T, path: string): Readonly<Record<string, string>> {
    return this.#pathOf.get(target)?.match(path) ?? NO_PARAMS;
  }
}

/** The target serving `method` (HEAD as GET), or undefined. */
export function targetFor<T>(match: PathMatch<T>, method: string): T | undefined {
  return match.byMethod.get(methodToServe(method));
}

/** The one 405 of the service: what the path allows, in its message and its Allow header. */
export function methodNotAllowed(method: string, path: string, match: PathMatch<unknown>): ApiError {
  const allowed = allowedMethods(match.byMethod.keys()).join(', ');
  return new ApiError(405, `${method} is not allowed on ${path}; use ${allowed}`, { allow: allowed });
}
