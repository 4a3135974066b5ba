import { StoreUnavailable } from '../core/store-engine.js';

/** Seconds a client is told to wait while Redis cannot be reached: the mock reconnects by itself meanwhile. */
export const RETRY_AFTER_SECONDS = 1;

/** Any failure to reach Redis, as the 503 the request is answered with. */
export function unavailable(error: unknown): StoreUnavailable {
  if (error instanceof StoreUnavailable) return error;
  return new StoreUnavailable(`The shared store (Redis) cannot be reached: ${(error as Error).message}; retry shortly`, RETRY_AFTER_SECONDS);
}
