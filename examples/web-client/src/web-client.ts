/** The client's flow: sign in with a code (or go on with the session kept from a visit before), find or create the ship, then the game screen. */
import { ApiError, GameApi, type Answer } from './game-api.js';
import { showGame } from './game-screen.js';
import { element, field, guarded, logAnswer, onSubmit, showScreen } from './page.js';
import { clearSession, loadSession, saveSession } from './session.js';

/** The spec sends X-ActionPoints-Remaining on every gameplay answer: the screen shows the latest. */
function showActionPoints(answer: Answer): void {
  const remaining = answer.headers['X-ActionPoints-Remaining'];
  if (remaining !== null) element('#action-points').textContent = remaining;
}

/** The ship screen or the game, for a signed-in player. */
async function enter(api: GameApi): Promise<void> {
  const ship = await api.ship();
  if (ship === null) showScreen('ship');
  else await showGame(api, ship);
}

/** A reload goes on with the kept session; a token the server no longer takes (401) signs the player out. */
async function resume(api: GameApi, apiBaseUrl: string): Promise<void> {
  try {
    await enter(api);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 401) throw error;
    clearSession(apiBaseUrl);
    showScreen('sign-in');
  }
}

export function startWebClient(apiBaseUrl: string): void {
  const kept = loadSession(apiBaseUrl);
  const api = new GameApi(
    apiBaseUrl,
    (answer) => {
      logAnswer(answer);
      showActionPoints(answer);
    },
    kept?.token,
  );
  let email = kept?.email ?? '';
  element('#api-base-url').textContent = apiBaseUrl;

  onSubmit('#sign-in-form', async (fields) => {
    email = field(fields, 'email');
    element('#verify-hint').textContent = await api.register(email);
    showScreen('verify');
  });
  onSubmit('#verify-form', async (fields) => {
    await api.verify(email, field(fields, 'code'));
    saveSession(apiBaseUrl, { email, token: api.token! });
    await enter(api);
  });
  onSubmit('#ship-form', async (fields) => {
    const ship = await api.createShip({ galaxyId: 1, shipName: field(fields, 'shipName'), classId: field(fields, 'classId') });
    await showGame(api, ship);
  });
  if (kept === undefined) showScreen('sign-in');
  else void guarded(() => resume(api, apiBaseUrl));
}
