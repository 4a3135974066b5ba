/** The client's flow: sign in with a code, find or create the ship, then the game screen. */
import { GameApi, type Answer } from './game-api.js';
import { showGame } from './game-screen.js';
import { element, field, logAnswer, onSubmit, showScreen } from './page.js';

/** The spec sends X-ActionPoints-Remaining on every gameplay answer: the screen shows the latest. */
function showActionPoints(answer: Answer): void {
  const remaining = answer.headers['X-ActionPoints-Remaining'];
  if (remaining !== null) element('#action-points').textContent = remaining;
}

export function startWebClient(apiBaseUrl: string): void {
  const api = new GameApi(apiBaseUrl, (answer) => {
    logAnswer(answer);
    showActionPoints(answer);
  });
  let email = '';
  element('#api-base-url').textContent = apiBaseUrl;

  onSubmit('#sign-in-form', async (fields) => {
    email = field(fields, 'email');
    element('#verify-hint').textContent = await api.register(email);
    showScreen('verify');
  });
  onSubmit('#verify-form', async (fields) => {
    await api.verify(email, field(fields, 'code'));
    const ship = await api.ship();
    if (ship === null) showScreen('ship');
    else await showGame(api, ship);
  });
  onSubmit('#ship-form', async (fields) => {
    const ship = await api.createShip({ galaxyId: 1, shipName: field(fields, 'shipName'), classId: field(fields, 'classId') });
    await showGame(api, ship);
  });
  showScreen('sign-in');
}
