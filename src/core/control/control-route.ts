import type { ControlResponse, JsonControlRouteKey } from '../../spec/control-responses.js';
import { CONTROL_ROUTES, type ControlRouteKey, type ControlRouteSpec } from '../../spec/control-routes.js';
import type { ControlRouteSummary } from '../../spec/openapi-types.js';
import type { ActiveVariants } from '../active-variants.js';
import type { ControllableClock } from '../clock.js';
import type { ServiceRequest } from '../http.js';
import type { FaultInjector } from '../faults.js';
import type { Journal } from '../journal.js';
import type { ResolvedOptions } from '../options.js';
import type { Store } from '../store.js';
import type { LiveRoutes } from '../user-routes/live-routes.js';
import type { SampleService } from './example-session.js';
import type { UndeclaredFields } from './undeclared-fields.js';

/** Everything the control routes may read and change. */
export interface ControlContext {
  store: Store;
  options: ResolvedOptions;
  /** The variants played; the control API switches them. */
  variants: ActiveVariants;
  journal: Journal;
  /** Undefined when the service was given a clock it cannot move. */
  clock: ControllableClock | undefined;
  /** Back to the start: forget all players and seed the configured world again. */
  reseedPlayers(): void;
  /** The fault rules in force and their seed. */
  faults: FaultInjector;
  /** The user's routes, changed at run time. */
  routes: LiveRoutes;
  /** A fresh service of the same options and routes, the variants played now, for the OpenAPI document's examples. */
  sampleService(): SampleService;
}

export interface ControlRequest {
  request: ServiceRequest;
  now: number;
  /** Path parameters by name (`:id` in the pattern), decoded. */
  params: Readonly<Record<string, string>>;
}

/** A control answer that is not JSON: a file of the dashboard, or the journal's event stream. */
export class ControlContent {
  constructor(
    readonly content: string | ReadableStream<string> | undefined,
    readonly headers: Readonly<Record<string, string>>,
  ) {}
}

export interface ControlRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Under the control prefix; `:name` segments are parameters. */
  pattern: string;
  summary: string;
  /** The success body (`success: true` is added unless `bare`), content of another type, or a thrown ApiError; or a promise of the body. */
  handle(call: ControlRequest): Record<string, unknown> | ControlContent | Promise<Record<string, unknown> | ControlContent>;
  /** The media type of a route that answers ControlContent. */
  contentType?: string;
  /** The body is a document of another format (OpenAPI allows no extra top-level field): sent as it is. */
  bare?: boolean;
  /** What the route reads of a request, for its document. */
  input?: ControlInput;
}

/** What a control route reads: the JSON Schema its body is validated with, and its query parameters. */
export interface ControlInput {
  body?: object;
  query?: readonly string[];
}

/** What the handler of a declared route returns: the declared data, or content for a route declared with another media type. */
export type ControlHandlerAnswer<K extends ControlRouteKey> = K extends JsonControlRouteKey ? ControlResponse<K> : ControlContent;

/** A control route, or, when the handler answers fields its declaration does not name, a type error that names them. */
export type DeclaredRoute<K extends ControlRouteKey, A> = [UndeclaredFields<A, ControlHandlerAnswer<K>>] extends [never]
  ? ControlRoute
  : { undeclaredFields: UndeclaredFields<A, ControlHandlerAnswer<K>> };

/** The route declared under `key` (method, pattern, summary, media type), answered by `handle`. */
export function declaredRoute<K extends ControlRouteKey, A extends ControlHandlerAnswer<K>>(
  key: K,
  handle: (call: ControlRequest) => A | Promise<A>,
  input?: ControlInput,
): DeclaredRoute<K, A> {
  const { method, pattern, summary, contentType, bare }: ControlRouteSpec = CONTROL_ROUTES[key];
  const route: ControlRoute = {
    method,
    pattern,
    summary,
    handle,
    ...(contentType === undefined ? {} : { contentType }),
    ...(bare === undefined ? {} : { bare }),
    ...(input === undefined ? {} : { input }),
  };
  return route as DeclaredRoute<K, A>;
}

/** A route as capabilities lists it and the OpenAPI document describes it. */
export function routeSummary({ method, pattern, summary, contentType }: ControlRoute): ControlRouteSummary {
  return { method, path: pattern, summary, ...(contentType === undefined ? {} : { contentType }) };
}
