import { MOCK_ROUTES, ROUTES } from '../../spec/routes.js';
import { routePath, routePathProblem, type RoutePath } from '../route-path.js';
import { compileTemplate, TEMPLATE_ROOTS, type Template, type TemplateProblem, type TemplateRules } from './template.js';
import { routeCategory, USER_ROUTE_CATEGORIES, USER_ROUTE_METHODS, userRouteId, type UserRoute, type UserRouteCategory } from './user-route.js';

/** A route of the user, checked and ready to answer. */
export interface CompiledUserRoute {
  id: string;
  definition: UserRoute;
  category: UserRouteCategory;
  path: RoutePath;
  status: Template;
  response: Template;
  /** Undefined when the route writes no state. */
  state: Template | undefined;
}

/** A route to check, and the JSON Pointer it is named by in messages (`/routes/2`). */
export interface RouteEntry {
  route: UserRoute;
  at: string;
}

/** Something wrong with a route, at a JSON Pointer into what was given. */
export type RouteProblem = TemplateProblem;

const SPEC_ROUTE_IDS = new Set([...ROUTES, ...MOCK_ROUTES].map((route) => `${route.method} ${route.path}`));
const READABLE_ON_PUBLIC = new Set(TEMPLATE_ROOTS.filter((root) => root !== 'player' && root !== 'state'));

function rulesFor(category: UserRouteCategory, path: RoutePath | undefined): TemplateRules {
  const params = new Set(path?.params ?? []);
  if (category === 'public') return { roots: READABLE_ON_PUBLIC, params, why: 'which a public route does not have: it answers without a token' };
  return { roots: new Set(TEMPLATE_ROOTS), params, why: '' };
}

function gameplayOnly(route: UserRoute, category: UserRouteCategory, at: string, problems: RouteProblem[]): void {
  if (category === 'gameplay') return;
  for (const key of ['cost', 'encounter'] as const) {
    if (route[key] !== undefined) problems.push({ at: `${at}/${key}`, message: `is for gameplay routes; this one's category is ${category}` });
  }
}

function checkStatus(status: UserRoute['status'], at: string, problems: RouteProblem[]): void {
  if (typeof status !== 'number') return;
  if (!Number.isInteger(status) || status < 200 || status > 599)
    problems.push({ at: `${at}/status`, message: `${status} is not an HTTP status from 200 to 599` });
}

/** Checks one route; its compiled form when nothing is wrong with it. */
function compileRoute({ route, at }: RouteEntry, problems: RouteProblem[]): CompiledUserRoute | undefined {
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
  if (SPEC_ROUTE_IDS.has(userRouteId(route))) {
    problems.push({ at, message: `${userRouteId(route)} is a route of the spec; a route may add a method to a spec path, not replace one` });
  }
  gameplayOnly(route, category, at, problems);
  if (category === 'public' && route.state !== undefined) problems.push({ at: `${at}/state`, message: 'is kept per player, and a public route has no player' });
  if (route.handler !== undefined) {
    for (const key of ['response', 'state', 'status'] as const) {
      if (route[key] !== undefined) problems.push({ at: `${at}/${key}`, message: "is not read: the route's handler answers" });
    }
  }
  checkStatus(route.status, at, problems);
  const rules = rulesFor(category, path);
  const compile = (key: 'status' | 'response' | 'state', value: unknown): Template => {
    const compiled = compileTemplate(value, rules);
    problems.push(...compiled.problems.map((problem) => ({ at: `${at}/${key}${problem.at}`, message: problem.message })));
    return compiled.template;
  };
  const status = compile('status', route.status ?? 200);
  const response = compile('response', route.response ?? {});
  const state = route.state === undefined || category === 'public' ? undefined : compile('state', route.state);
  if (problems.length > before || path === undefined) return undefined;
  return { id: userRouteId(route), definition: route, category, path, status, response, state };
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
    if (compiled !== undefined) routes.push(compiled);
  }
  return { routes, problems };
}
