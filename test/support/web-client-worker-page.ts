import { startMockWorker } from '../../src/browser.js';
import type { UserRoute } from '../../src/core/user-routes/user-route.js';
import type { World } from '../../src/core/world.js';
import { apiBaseUrl } from '../../examples/web-client/src/api-base-url.js';
import { loadSession } from '../../examples/web-client/src/session.js';
import { startWebClient } from '../../examples/web-client/src/web-client.js';

/** What the page takes of examples/web-client/mock.json. */
export interface WorkerMockConfig {
  routes: readonly UserRoute[];
  ship?: Readonly<Record<string, unknown>>;
  player?: Readonly<Record<string, unknown>>;
}

/** The example client unchanged, its API answered in the page by the msw worker with mock.json. */
declare global {
  interface Window {
    /** Called by the test with examples/web-client/mock.json. */
    startWithMockWorker(config: WorkerMockConfig): Promise<void>;
    /** The newest code the in-page mock delivered to `email`. */
    latestOtp(email: string): Promise<string>;
  }
}

/** The in-page mock's players, kept over a reload as a world, with the token the client kept: as a page that keeps its mock does. */
const KEPT_WORLD = 'in-page mock world';

window.startWithMockWorker = async ({ routes, ship, player }) => {
  const apiUrl = apiBaseUrl(location.search);
  const kept = sessionStorage.getItem(KEPT_WORLD);
  const world = kept === null ? undefined : (JSON.parse(kept) as World);
  let keep = () => {};
  const { control } = await startMockWorker({
    baseUrl: apiUrl,
    routes,
    ...(ship === undefined ? {} : { ship }),
    ...(player === undefined ? {} : { player }),
    ...(world === undefined ? {} : { world }),
    serviceWorkerUrl: '/mockServiceWorker.js',
    quiet: true,
    onOtp: () => {},
    // After each answer, so that the world is kept before the page can go.
    onRequest: () => keep(),
  });
  window.latestOtp = (email) => control.latestOtp(email);
  keep = () => {
    const session = loadSession(apiUrl);
    void control.players().then((players) => {
      const seeds = players.map(({ email, actionPoints, ship: kept }) => {
        // The mock's own fields of a ship (its id and createdAt) are made anew; the rest is the user's.
        const { id: _id, createdAt: _createdAt, ...fields } = kept ?? {};
        return { email, actionPoints, ...(email === session?.email ? { token: session.token } : {}), ...(kept === null ? {} : { ship: fields }) };
      });
      sessionStorage.setItem(KEPT_WORLD, JSON.stringify({ players: seeds }));
    });
  };
  startWebClient(apiUrl);
};
