import type { ControlRouteSummary } from '../../spec/openapi-types.js';
import type { ActiveVariants } from '../active-variants.js';
import type { ControllableClock } from '../clock.js';
import type { ServiceRequest } from '../http.js';
import type { FaultInjector } from '../faults.js';
import type { Journal } from '../journal.js';
import type { ResolvedOptions } from '../options.js';
import type { Store } from '../store.js';

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
  /** Under /__mock; `:name` segments are parameters. */
  pattern: string;
  summary: string;
  /** The success body (`success: true` is added unless `bare`), content of another type, or a thrown ApiError. */
  handle(call: ControlRequest): Record<string, unknown> | ControlContent;
  /** The media type of a route that answers ControlContent. */
  contentType?: string;
  /** The body is a document of another format (OpenAPI allows no extra top-level field): sent as it is. */
  bare?: boolean;
}

/** A route as capabilities lists it and the OpenAPI document describes it. */
export function routeSummary({ method, pattern, summary, contentType }: ControlRoute): ControlRouteSummary {
  return { method, path: pattern, summary, ...(contentType === undefined ? {} : { contentType }) };
}
