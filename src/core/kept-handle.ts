import { HEADERS } from '../spec/limits.js';
import { errorBody } from './errors.js';
import type { ServiceRequest, ServiceResponse } from './http.js';
import { StoreUnavailable, type StoreEngine } from './store-engine.js';

type Handle = (request: ServiceRequest) => Promise<ServiceResponse>;

/** The 503 of a request whose state could not be read or kept: nothing it did is acknowledged. */
export function unavailableResponse(error: StoreUnavailable): ServiceResponse {
  return {
    status: 503,
    headers: { vary: 'Origin', 'cache-control': 'no-store', [HEADERS.retryAfter]: String(error.retryAfterSeconds) },
    body: errorBody(error.message),
  };
}

/** `handle` with its records loaded before and kept after, by the engine, before the answer leaves. */
export function keptBy(engine: StoreEngine, handle: Handle): Handle {
  return async (request) => {
    try {
      if (engine.beforeRequest !== undefined) await engine.beforeRequest(request);
      const response = await handle(request);
      await engine.afterRequest();
      return response;
    } catch (error) {
      if (error instanceof StoreUnavailable) return unavailableResponse(error);
      throw error;
    }
  };
}
