import type { RouteSpec } from '../spec/routes.js';
import type { RequestContext } from './request-context.js';
import type { Player } from './store.js';

/** A route of the spec or the mock, or one of the user's (`source` says where it was defined). */
export type RouteDefinition = Omit<RouteSpec, 'method'> & {
  readonly method: string;
  /** Set on the user's routes only: `config` (templates) or the handler's module and export. */
  readonly source?: string;
};

/** A route of the API: its definition, and the handler that answers it once admitted. */
export interface Route {
  readonly spec: RouteDefinition;
  /** The body fields the spec names, on a spec route that reads a body: the others are named in a refusal and journaled. */
  readonly bodyFields?: readonly string[];
  /**
   * Returns the success body (status 200), a RouteReply with a status of its own, or throws an ApiError.
   * `player` is set once the route's token has been checked.
   */
  handle(context: RequestContext, player: Player | undefined): unknown;
}
