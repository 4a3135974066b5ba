import { MOCK_ROUTES, ROUTES } from '../../spec/routes.js';
import { isJsonObject } from '../body.js';
import { routePath, routePathProblem, type RoutePath } from '../route-path.js';
import { GeneralisedAnswers } from './generalised-answers.js';
import { KnownObjects } from './known-objects.js';
import { mockOwnFieldProblem } from './resource-templates.js';
import { compileTemplate, TEMPLATE_ROOTS, type Template, type TemplateProblem, type TemplateRoot, type TemplateRules } from './template.js';
import {
  type RouteAnswer,
  type RouteAnswerTemplates,
  isRouteStatus,
  routeCategory,
  USER_ROUTE_CATEGORIES,
  USER_ROUTE_METHODS,
  type UserRoute,
  type UserRouteCategory,
  userRouteId,
} from './user-route.js';

/** One way a route answers, checked and ready. */
export interface CompiledAnswer {
  status: Template;
  /** The fields added to `{success: true}`; undefined where `body` gives the whole answer. */
  response: Template | undefined;
  body: Template | undefined;
  /** Each undefined when the answer writes none. */
  state: Template | undefined;
  ship: Template | undefined;
  player: Template | undefined;
}

/** One of a route's `answers`, with what chooses it. */
export interface CompiledAlternative {
  when: { params: Readonly<Record<string, string>>; query: Readonly<Record<string, string>>; body: Readonly<Record<string, unknown>> };
  /** Its conditions as text: alternatives with the same key are served in turn. */
  key: string;
  answer: CompiledAnswer;
}

/** A route of the user, checked and ready to answer. */
export interface CompiledUserRoute {
  id: string;
  definition: UserRoute;
  category: UserRouteCategory;
  path: RoutePath;
  /** The route's own answer; undefined when only its `answers` answer (a request none of them holds for is a 404). */
  answer: CompiledAnswer | undefined;
  /** Its `answers`, the most specific first (their order kept among equals). */
  answers: readonly CompiledAlternative[];
  /** The answers it gave requests none of its `answers` held for, for the routes listing. */
  generalised: GeneralisedAnswers;
  /** What every route's recorded answers say of each id: a generalised answer's fields for an id it was not recorded for. */
  known: KnownObjects;
}

/** A route to check, and the JSON Pointer it is named by in messages (`/routes/2`). */
export interface RouteEntry {
  route: UserRoute;
  at: string;
}

/** Something wrong with a route, at a JSON Pointer into what was given. */
export type RouteProblem = TemplateProblem;

const SPEC_ROWS = new Map<string, (typeof ROUTES)[number]>(ROUTES.map((route) => [userRouteId(route), route]));
const MOCK_ROUTE_IDS = MOCK_ROUTES.map(userRouteId);
const ANSWER_KEYS = ['status', 'response', 'body', 'state', 'ship', 'player'] as const satisfies readonly (keyof RouteAnswerTemplates)[];
const PER_PLAYER_KEYS = ['state', 'ship', 'player'] as const;

function rulesFor(category: UserRouteCategory, path: RoutePath | undefined): TemplateRules {
  const params = new Set(path?.params ?? []);
  const unread: TemplateRoot[] = category === 'public' ? ['counter', 'player', 'state', 'ship'] : ['counter'];
  const why = (root: TemplateRoot) =>
    root === 'counter' ? 'which only the ship and player templates read' : 'which a public route does not have: it answers without a token';
  return { roots: new Set(TEMPLATE_ROOTS.filter((root) => !unread.includes(root))), params, why };
}

function gameplayOnly(route: UserRoute, category: UserRouteCategory, at: string, problems: RouteProblem[]): void {
  if (category === 'gameplay') return;
  for (const key of ['cost', 'encounter'] as const) {
    if (route[key] !== undefined) problems.push({ at: `${at}/${key}`, message: `is for gameplay routes; this one's category is ${category}` });
  }
}

function checkStatus(status: RouteAnswerTemplates['status'], at: string, problems: RouteProblem[]): void {
  if (typeof status === 'number' && !isRouteStatus(status)) problems.push({ at: `${at}/status`, message: `${status} is not an HTTP status from 200 to 599` });
}

/** The refusal of a route that would replace a row of the spec's Endpoints table, naming that row. */
function specRowProblem(route: UserRoute, at: string): RouteProblem | undefined {
  const row = SPEC_ROWS.get(userRouteId(route));
  if (row === undefined) return undefined;
  const replaceable = MOCK_ROUTE_IDS.join(', ');
  return {
    at,
    message: `${userRouteId(route)} is the row "${row.method} {base_url}${row.path}" (${row.id}) of the spec's Endpoints table, which the mock answers as the spec says; a route may add a method to its path, or replace a route the mock adds beyond the table (${replaceable}), not a row of the table`,
  };
}

/** Checks one answer's templates (a route's own, or one of its `answers`) and compiles them. */
function compileAnswer(given: RouteAnswerTemplates, at: string, category: UserRouteCategory, rules: TemplateRules, problems: RouteProblem[]): CompiledAnswer {
  if (given.response !== undefined && given.body !== undefined) {
    problems.push({
      at: `${at}/body`,
      message: 'and response are both given: response is the fields added to {"success": true}, body the whole answer; give one',
    });
  }
  for (const key of PER_PLAYER_KEYS) {
    if (category === 'public' && given[key] !== undefined)
      problems.push({ at: `${at}/${key}`, message: 'is kept per player, and a public route has no player' });
  }
  for (const kind of ['ship', 'player'] as const) {
    const fields = given[kind];
    if (fields === undefined) continue;
    const problem = isJsonObject(fields) ? mockOwnFieldProblem(kind, Object.keys(fields)) : `must be an object: the fields written into the caller's ${kind}`;
    if (problem !== undefined) problems.push({ at: `${at}/${kind}`, message: problem });
  }
  checkStatus(given.status, at, problems);
  const compile = (key: (typeof ANSWER_KEYS)[number], value: unknown): Template => {
    const compiled = compileTemplate(value, rules);
    problems.push(...compiled.problems.map((problem) => ({ at: `${at}/${key}${problem.at}`, message: problem.message })));
    return compiled.template;
  };
  const optional = (key: (typeof ANSWER_KEYS)[number]) => (given[key] === undefined ? undefined : compile(key, given[key]));
  const perPlayer = (key: (typeof PER_PLAYER_KEYS)[number]) => (category === 'public' ? undefined : optional(key));
  return {
    status: compile('status', given.status ?? 200),
    response: given.body === undefined ? compile('response', given.response ?? {}) : undefined,
    body: optional('body'),
    state: perPlayer('state'),
    ship: perPlayer('ship'),
    player: perPlayer('player'),
  };
}

/** The `when` of an answer: text for each path and query parameter (of the path's own), any JSON for each body field. */
function compileWhen(answer: RouteAnswer, at: string, path: RoutePath | undefined, problems: RouteProblem[]): CompiledAlternative['when'] {
  const { params = {}, query = {}, body = {} } = answer.when ?? {};
  if (!isJsonObject(params) || !isJsonObject(query) || !isJsonObject(body)) {
    problems.push({
      at: `${at}/when`,
      message: 'takes params and query (parameters, each a string) and body (fields, each a JSON value), all objects',
    });
    return { params: {}, query: {}, body: {} };
  }
  for (const [kind, given] of [
    ['params', params],
    ['query', query],
  ] as const) {
    for (const [name, value] of Object.entries(given)) {
      if (typeof value !== 'string')
        problems.push({ at: `${at}/when/${kind}/${name}`, message: `must be a string: a ${kind === 'params' ? 'path' : 'query'} parameter is text` });
    }
  }
  for (const name of Object.keys(params)) {
    if (path !== undefined && !path.params.includes(name)) {
      problems.push({
        at: `${at}/when/params/${name}`,
        message: `is no parameter of the path, which has ${path.params.map((param) => `:${param}`).join(', ') || 'none'}`,
      });
    }
  }
  return { params, query, body };
}

function compileAlternatives(
  route: UserRoute,
  at: string,
  category: UserRouteCategory,
  path: RoutePath | undefined,
  rules: TemplateRules,
  problems: RouteProblem[],
): CompiledAlternative[] {
  if (route.answers === undefined) return [];
  if (!Array.isArray(route.answers)) {
    problems.push({ at: `${at}/answers`, message: 'must be an array of answers, each with an optional when' });
    return [];
  }
  const alternatives = route.answers.map((answer, index) => {
    const answerAt = `${at}/answers/${index}`;
    const when = compileWhen(answer, answerAt, path, problems);
    const key = JSON.stringify([Object.entries(when.params).sort(), Object.entries(when.query).sort(), Object.entries(when.body).sort()]);
    return { when, key, answer: compileAnswer(answer, answerAt, category, rules, problems) };
  });
  const conditions = ({ when }: CompiledAlternative) => Object.keys(when.params).length + Object.keys(when.query).length + Object.keys(when.body).length;
  return alternatives.sort((a, b) => conditions(b) - conditions(a));
}

/** Checks one route; its compiled form when nothing is wrong with it. */
function compileRoute({ route, at }: RouteEntry, problems: RouteProblem[]): Omit<CompiledUserRoute, 'known'> | undefined {
  const before = problems.length;
  if (!(USER_ROUTE_METHODS as readonly string[]).includes(route.method)) {
    problems.push({ at: `${at}/method`, message: `${JSON.stringify(route.method)} is not one of ${USER_ROUTE_METHODS.join(', ')}` });
  }
  if (route.category !== undefined && !(USER_ROUTE_CATEGORIES as readonly string[]).includes(route.category)) {
    problems.push({ at: `${at}/category`, message: `${JSON.stringify(route.category)} is not one of ${USER_ROUTE_CATEGORIES.join(', ')}` });
  }
  const category = routeCategory(route);
  const pathProblem = typeof route.path === 'string' ? routePathProblem(route.path) : 'must be a string';
  if (pathProblem !== undefined) problems.push({ at: `${at}/path`, message: pathProblem });
  const path = pathProblem === undefined ? routePath(route.path) : undefined;
  const specRow = specRowProblem(route, at);
  if (specRow !== undefined) problems.push(specRow);
  gameplayOnly(route, category, at, problems);
  if (route.handler !== undefined) {
    for (const key of [...ANSWER_KEYS, 'answers'] as const) {
      if (route[key] !== undefined) problems.push({ at: `${at}/${key}`, message: "is not read: the route's handler answers" });
    }
  }
  const rules = rulesFor(category, path);
  const answers = compileAlternatives(route, at, category, path, rules, problems);
  const ownGiven = ANSWER_KEYS.some((key) => route[key] !== undefined);
  const answer = answers.length > 0 && !ownGiven ? undefined : compileAnswer(route, at, category, rules, problems);
  if (problems.length > before || path === undefined) return undefined;
  return { id: userRouteId(route), definition: route, category, path, answer, answers, generalised: new GeneralisedAnswers() };
}

/**
 * Checks the routes of a user, every problem named by its JSON Pointer: a path outside /api/ or not a path,
 * a spec route replaced, a route given twice (`/a/:x` and `/a/:y` are one path), keys of another category,
 * templates that read what the route cannot. Returns the compiled routes when there is no problem.
 */
export function compileUserRoutes(entries: readonly RouteEntry[]): { routes: CompiledUserRoute[]; problems: RouteProblem[] } {
  const problems: RouteProblem[] = [];
  const routes: CompiledUserRoute[] = [];
  const seen = new Map<string, string>();
  const known = new KnownObjects(entries.map((entry) => entry.route));
  for (const entry of entries) {
    const compiled = compileRoute(entry, problems);
    const key = compiled === undefined ? undefined : `${entry.route.method} ${compiled.path.shape}`;
    if (key !== undefined && seen.has(key)) {
      problems.push({
        at: entry.at,
        message: `repeats ${userRouteId(entry.route)}${seen.get(key) === userRouteId(entry.route) ? '' : ` (as ${seen.get(key)})`}`,
      });
      continue;
    }
    if (key !== undefined) seen.set(key, userRouteId(entry.route));
    if (compiled !== undefined) routes.push({ ...compiled, known });
  }
  return { routes, problems };
}
