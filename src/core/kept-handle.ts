import { HEADERS } from '../spec/limits.js';
import { ROUTES } from '../spec/routes.js';
import { errorBody } from './errors.js';
import type { ServiceRequest, ServiceResponse } from './http.js';
import { StoreSuspension, StoreUnavailable, type StoreEngine } from './store-engine.js';

type Handle = (request: ServiceRequest) => Promise<ServiceResponse>;

const HEALTH_PATH = ROUTES.find((route) => route.id === 'health')!.path;

/** What a request stops on when its engine must wait for its server, or cannot reach it. */
export function isStoreInterruption(error: unknown): boolean {
  return error instanceof StoreSuspension || error instanceof StoreUnavailable;
}

/**
 * The 503 of a request whose state could not be read or kept: nothing it did is acknowledged, and nothing is
 * let through a limit that could not be counted. /health says so in its status too.
 */
export function unavailableResponse(request: ServiceRequest, error: StoreUnavailable): ServiceResponse {
  const body = errorBody(error.message);
  return {
    status: 503,
    headers: { vary: 'Origin', 'cache-control': 'no-store', [HEADERS.retryAfter]: String(error.retryAfterSeconds) },
    body: request.path === HEALTH_PATH ? { status: 'unavailable', ...body } : body,
  };
}

/** Told once when the store becomes unreachable (with why) and once when it answers again. */
export type StoreStatusListener = (status: { available: false; reason: string } | { available: true }) => void;

/**
 * `handle` with its records loaded before and kept after by the engine, before the answer leaves; each change
 * of the store's reachability is told once, however many requests meet it.
 */
export function keptBy(engine: StoreEngine, handle: Handle, onStatus: StoreStatusListener = () => {}): Handle {
  let down = false;
  return async (request) => {
    try {
      if (engine.beforeRequest !== undefined) await engine.beforeRequest(request);
      let response: ServiceResponse | undefined;
      while (response === undefined) {
        try {
          response = await handle(request);
        } catch (error) {
          if (!(error instanceof StoreSuspension)) throw error;
          const resume = await error.ready;
          // Synchronously up to the read that suspended: nothing else can take what `resume` hands over.
          resume();
        }
      }
      await engine.afterRequest();
      if (down) {
        down = false;
        onStatus({ available: true });
      }
      return response;
    } catch (error) {
      if (!(error instanceof StoreUnavailable)) throw error;
      if (!down) {
        down = true;
        onStatus({ available: false, reason: error.message });
      }
      return unavailableResponse(request, error);
    }
  };
}
