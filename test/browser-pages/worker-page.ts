import { startMockWorker, VirtualClock } from '../../src/browser.js';
import { runScenario } from './scenario.js';
import { MINE_ROUTE, SCENARIO_ACTION_POINTS, SCENARIO_START_MS } from './scenario-config.js';

/** The same game client page, its API answered in the page by the msw worker over the same service. */
document.querySelector('#title')!.textContent = 'msw worker in the page';
window.runScenario = async ({ apiUrl }) => {
  const { control } = await startMockWorker({
    baseUrl: apiUrl,
    gameOrigins: [location.origin],
    clock: new VirtualClock({ startMs: SCENARIO_START_MS, frozen: true }),
    actionPoints: SCENARIO_ACTION_POINTS,
    routes: [MINE_ROUTE],
    serviceWorkerUrl: '/mockServiceWorker.js',
    quiet: true,
  });
  return runScenario(apiUrl, (email) => control.latestOtp(email));
};
