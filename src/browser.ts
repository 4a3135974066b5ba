/** `game-service-harness/browser`: the msw mock and a helper that starts msw's worker. No node:* imports. */
import './node-version-guard.js';
import { setupWorker, type SetupWorker } from 'msw/browser';
import { createMswMock, type MswMock, type MswMockOptions } from './hosts/msw.js';

export * from './msw.js';

export interface MockWorkerOptions extends MswMockOptions {
  /** Where the page serves msw's worker script (`npx msw init public/`); default /mockServiceWorker.js. */
  serviceWorkerUrl?: string;
  /** Keep the browser console free of msw's line per request; default false. */
  quiet?: boolean;
}

export interface MockWorker extends MswMock {
  worker: SetupWorker;
}

/** A browser dev build's mock: the msw worker started over the same service as the standalone server. */
export async function startMockWorker(options: MockWorkerOptions): Promise<MockWorker> {
  const { serviceWorkerUrl, quiet = false, ...mockOptions } = options;
  const mock = createMswMock({ pageOrigin: location.origin, ...mockOptions });
  const worker = setupWorker(...mock.handlers);
  await worker.start({
    quiet,
    onUnhandledFrame: 'bypass',
    ...(serviceWorkerUrl === undefined ? {} : { serviceWorker: { url: serviceWorkerUrl } }),
  });
  return { ...mock, worker };
}
