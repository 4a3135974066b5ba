import type { RateLimitCategory } from '../spec/limits.js';
import type { KeptRequest } from './journal-request.js';

/** One answered request, as a client developer reads it back from the control API's journal. */
export interface JournalEntry extends KeptRequest {
  /** Epoch milliseconds on the service's clock; formatted only when read, off the hot path. */
  atMs: number;
  method: string;
  path: string;
  status: number;
  /** The rate-limit category: the matched route's, or public for an unknown path or method (404, 405, counted there); null for preflights. */
  category: RateLimitCategory | null;
  ip: string;
  origin: string | null;
  /** The id of the route that answered: a spec route's (getPlayer), or `METHOD /path` of a configured one; null when none did. */
  route: string | null;
  /** Fields of a spec route's JSON body that the spec does not name (a misnamed field shows here); null when none. */
  unknownFields: string[] | null;
  /** The signed-in player, when the route needed one and the token was valid. */
  playerId: string | null;
  /** The injected faults the request met (`status 503`, `latency 120 ms`, `reset`, …); null when none. */
  fault: string[] | null;
  /** The recorded values of the answer a configured route gave in place of one for this request (`query id=1`); null when none. */
  generalisedFrom: string | null;
}
