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

export interface ControlRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Under /__mock; `:name` segments are parameters. */
  pattern: string;
  summary: string;
  /** The success body (`success: true` is added unless `bare`), or a thrown ApiError. */
  handle(call: ControlRequest): Record<string, unknown>;
  /** The body is a document of another format (OpenAPI allows no extra top-level field): sent as it is. */
  bare?: boolean;
}
