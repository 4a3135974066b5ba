import type { Variants } from './active-variants.js';
import type { FaultsMet } from './faults.js';
import type { ServiceRequest } from './http.js';
import type { ResolvedOptions } from './options.js';
import type { Store } from './store.js';

/** Who sent a request, as far as the service can tell before authentication. */
export interface Caller {
  /** The client address the host decided on (peer, or a trusted forwarded one). */
  readonly ip: string;
  readonly origin: string | undefined;
  /** A configured game origin: exempt from the gameplay, read and public buckets. */
  readonly isGameOrigin: boolean;
  /** The Origin when CORS lets a page read the answer. */
  readonly corsOrigin: string | undefined;
}

/** What the service's rules read: its configuration and the variants it plays. */
export interface Rules {
  readonly config: ResolvedOptions;
  readonly variants: Variants;
}

/**
 * Everything a request is answered from, fixed once it arrives (after the fault draw and its latency): handlers
 * read it and return their answer. A store suspension runs the handler again with the same context.
 */
export interface RequestContext extends Rules {
  readonly request: ServiceRequest;
  /** The clock's time when the request arrived: every expiry and window of the request reads this one. */
  readonly now: number;
  readonly store: Store;
  readonly caller: Caller;
  /**
   * Addressed to the control API, under its prefix while it is served: decided once, when the request arrives. Such a
   * request keeps the control API's origin rules, meets no fault, and is neither counted nor journaled.
   */
  readonly isControl: boolean;
  /** Injected faults the request met, when any. */
  readonly faults: FaultsMet | undefined;
}
