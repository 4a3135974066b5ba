import type { Identity } from './identities.js';

/** One request of a check, as the target sends it: through the run's scheduler, from a client of the pool. */
export interface Call {
  method: string;
  path: string;
  identity?: Identity;
  token?: string;
  origin?: string;
  /** A JSON body (sent with Content-Type: application/json). */
  json?: unknown;
  /** A body sent as is, with the headers given. */
  rawBody?: string;
  headers?: Readonly<Record<string, string>>;
  /** The check wants to see a 429: neither pace nor retry. */
  expectLimit?: boolean;
  /** Pace as usual, but hand back a 429 as it came (a limit other than the bucket's may answer it). */
  acceptLimit?: boolean;
}
