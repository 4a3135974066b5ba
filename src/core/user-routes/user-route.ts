import type { ApiError } from '../errors.js';

export const USER_ROUTE_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type UserRouteMethod = (typeof USER_ROUTE_METHODS)[number];

/**
 * The spec's categories a route of the user can join: gameplay (bearer token, the gameplay bucket per player,
 * an action-point cost and the X-ActionPoints headers), read (bearer token, the read bucket per player) and
 * public (no token, the public bucket per IP).
 */
export const USER_ROUTE_CATEGORIES = ['gameplay', 'read', 'public'] as const;
export type UserRouteCategory = (typeof USER_ROUTE_CATEGORIES)[number];

/** The bytes (UTF-8 of its JSON) a player's route state may take; a write beyond it is answered 413. */
export const MAX_ROUTE_STATE_BYTES = 16 * 1024;

/** The bytes (UTF-8 of its JSON) the fields a user gives a ship, or a player, may take: a write beyond it is answered 413. */
export const MAX_RESOURCE_FIELDS_BYTES = 16 * 1024;

/** A resource of the caller a handler reads, and writes fields into: kept once the route answers with success. */
export interface RouteResourceAccess {
  /** Fields merged into the resource (over any of the same name); the next read shows them. The values must be JSON. */
  update(fields: Readonly<Record<string, unknown>>): void;
}

/** The player as a route sees it: the fields of GET /api/player's `player`. */
export type RoutePlayer = Readonly<Record<string, unknown>> & {
  readonly id: string;
  readonly email: string;
  readonly actionPoints: number;
} & RouteResourceAccess;

/** The player's ship as a route sees it: the fields of GET /api/player/ship's `ship`. */
export type RouteShip = Readonly<Record<string, unknown>> & { readonly id: string; readonly name: string } & RouteResourceAccess;

/** A player's state kept for routes: what one request stores, a later one reads. */
export interface RouteStateAccess {
  get(key: string): unknown;
  /** Kept once the route answers with success; undefined deletes the key. The value must be JSON. */
  set(key: string, value: unknown): void;
  /** Every key, with the writes of this request. */
  all(): Readonly<Record<string, unknown>>;
}

/** What a route handler of a module is called with. */
export interface RouteHandlerContext {
  readonly method: string;
  /** As sent, without the query. */
  readonly path: string;
  /** The `:name` segments of the route's path, decoded. */
  readonly params: Readonly<Record<string, string>>;
  /** The first value of each query parameter. */
  readonly query: Readonly<Record<string, string>>;
  /** The JSON object sent; `{}` without a body. */
  readonly body: Readonly<Record<string, unknown>>;
  /** The signed-in player; undefined on a public route. */
  readonly player: RoutePlayer | undefined;
  /** The signed-in player's ship; undefined on a public route and before the player has one. */
  readonly ship: RouteShip | undefined;
  /** The player's route state; on a public route, reading gives undefined and writing throws. */
  readonly state: RouteStateAccess;
  /** Spends points beyond the route's cost when it answers with success; a 403 at once when they are not there. */
  spendActionPoints(points: number): void;
  /** The mock's clock (which the control API may have moved). */
  readonly now: Date;
  /** Throw it to answer `{error: message}` with that status: `throw context.error(409, 'Not docked')`. */
  error(status: number, message: string): ApiError;
  /** An answer with another status than 200: `return context.reply(201, {id})`. */
  reply(status: number, body: Readonly<Record<string, unknown>>): RouteReply;
}

/** An answer of a handler with its own status. */
export class RouteReply {
  constructor(
    readonly status: number,
    /** A JSON object from a handler; any JSON value from a route's `body` template. */
    readonly body: unknown,
    /** Headers of its own: a generalised answer's mark. */
    readonly headers?: Readonly<Record<string, string>>,
  ) {}
}

/** Returns the fields added to `{success: true}` (or a RouteReply), or throws `context.error(…)`. */
export type RouteHandler = (context: RouteHandlerContext) => unknown;

/** What a route answers with: its status, its fields or whole body, and what it writes on success. */
export interface RouteAnswerTemplates {
  /** A number, or a template giving one; default 200. */
  status?: number | string;
  /** Template of the fields added to `{success: true}` (or of the error body, with a status of 400 or more). */
  response?: Readonly<Record<string, unknown>>;
  /** Template of the whole answer body, sent as it is: no `success` added (a recorded answer, replayed). */
  body?: unknown;
  /** Template of the player's state keys written on success; gameplay and read routes only. */
  state?: Readonly<Record<string, unknown>>;
  /** Template of fields written into the caller's ship on success (404 before there is a ship); not on public routes. */
  ship?: Readonly<Record<string, unknown>>;
  /** Template of fields written into the caller's player on success; not on public routes. */
  player?: Readonly<Record<string, unknown>>;
}

/** What a request must have sent for an answer of `answers` to be chosen: each query parameter and body field given. */
export interface RouteAnswerCondition {
  /** The path's `:name` segments, each equal to the text given (decoded). */
  params?: Readonly<Record<string, string>>;
  /** Parameters of the query string, each equal to the text given. */
  query?: Readonly<Record<string, string>>;
  /** Fields of the JSON body, each equal to the value given. */
  body?: Readonly<Record<string, unknown>>;
}

/** One of a route's answers, chosen by what the request sent. */
export interface RouteAnswer extends RouteAnswerTemplates {
  when?: RouteAnswerCondition;
}

/** A route a client developer adds to the spec's: answered from templates, or by a handler function. */
export interface UserRoute extends RouteAnswerTemplates {
  method: UserRouteMethod;
  /** Under /api/; `:name` segments are parameters. */
  path: string;
  /** Default: read for GET, gameplay for the other methods. */
  category?: UserRouteCategory;
  /** Gameplay only: action points spent on success; default 1 (actionCosts under the route's id outranks it). */
  cost?: number;
  /** Gameplay only: this action starts a fighter encounter, or resolves one (and is then allowed during it). */
  encounter?: 'start' | 'resolve';
  /**
   * Answers chosen by the request: those whose every condition holds, the one with the most conditions first; answers
   * with the same conditions are served in turn to each caller (the last one then repeats). When none holds, the
   * route's own templates answer, or 404 when it has none.
   */
  answers?: readonly RouteAnswer[];
  /**
   * A request none of `answers` holds for, without an answer of the route's own: true answers 404; false answers it
   * from the answer whose conditions it sent with other values (marked X-Mock-Generalised). Default: the mock's
   * strictAnswers.
   */
  strictAnswers?: boolean;
  /** Answers instead of the templates. */
  handler?: RouteHandler;
  /** Where the handler came from, for listings (`./routes.ts#digest`). */
  source?: string;
}

/** `"METHOD /path/:param"`, as the journal, the control API and actionCosts name a route. */
export function userRouteId(route: { readonly method: string; readonly path: string }): string {
  return `${route.method} ${route.path}`;
}

/** Whether a route of the user replaces `route` of the mock's: one with its id, the same method and path. */
export function replacedByUser(route: { readonly method: string; readonly path: string }, userRoutes: readonly { readonly id: string }[]): boolean {
  return userRoutes.some((user) => user.id === userRouteId(route));
}

/** A status a route may answer: a whole number from `lowest` (400 for an error) to 599. */
export function isRouteStatus(status: number, lowest = 200): boolean {
  return Number.isInteger(status) && status >= lowest && status <= 599;
}

export function routeCategory(route: Pick<UserRoute, 'method' | 'category'>): UserRouteCategory {
  return route.category ?? (route.method === 'GET' ? 'read' : 'gameplay');
}

/** Where a route of the user is defined, for listings: its handler's module and export, `handler` (a function given directly) or `config`. */
export function routeSource(route: Pick<UserRoute, 'handler' | 'source'>): string {
  return route.source ?? (route.handler === undefined ? 'config' : 'handler');
}
