import { startMockWorker } from '../../src/browser.js';
import type { UserRoute } from '../../src/core/user-routes/user-route.js';
import { apiBaseUrl } from '../../examples/web-client/src/api-base-url.js';
import { startWebClient } from '../../examples/web-client/src/web-client.js';

/** The example client unchanged, its API answered in the page by the msw worker with the routes of mock.json. */
declare global {
  interface Window {
    /** Called by the test with the `routes` of examples/web-client/mock.json. */
    startWithMockWorker(routes: readonly UserRoute[]): Promise<void>;
    /** The newest code the in-page mock delivered to `email`. */
    latestOtp(email: string): Promise<string>;
  }
}

window.startWithMockWorker = async (routes) => {
  const apiUrl = apiBaseUrl(location.search);
  const { control } = await startMockWorker({ baseUrl: apiUrl, routes, serviceWorkerUrl: '/mockServiceWorker.js', quiet: true, onOtp: () => {} });
  window.latestOtp = (email) => control.latestOtp(email);
  startWebClient(apiUrl);
};
