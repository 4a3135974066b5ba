/** The game screen: the ship, its galaxy's sectors from GET /api/galaxy/:galaxyId/sectors, and a move to another. */
import type { GalaxyView, GameApi, Ship } from './game-api.js';
import { element, guarded, showScreen } from './page.js';

/** Galaxy of a ship created without one (by another client, or before this client sent galaxyId). */
const DEFAULT_GALAXY_ID = 1;

export async function showGame(api: GameApi, ship: Ship): Promise<void> {
  const galaxyId = ship.galaxyId ?? DEFAULT_GALAXY_ID;
  element('#ship-title').textContent = `${ship.name}${ship.classId === undefined ? '' : ` (${ship.classId})`}`;
  element('#galaxy-id').textContent = String(galaxyId);
  renderGalaxy(api, galaxyId, await api.galaxy(galaxyId));
  showScreen('game');
}

function renderGalaxy(api: GameApi, galaxyId: number, view: GalaxyView): void {
  const current = view.sectors.find((sector) => sector.id === view.currentSectorId);
  element('#current-sector').textContent = current?.name ?? `#${view.currentSectorId}`;
  const items = view.sectors.map((sector) => {
    const item = document.createElement('li');
    item.dataset['sectorId'] = String(sector.id);
    item.append(sector.name);
    if (sector.id === view.currentSectorId) {
      item.classList.add('current');
      item.append(' · you are here');
      return item;
    }
    const move = document.createElement('button');
    move.textContent = `Move to ${sector.name}`;
    move.addEventListener('click', () => {
      move.disabled = true;
      void guarded(async () => {
        await api.move(sector.id);
        renderGalaxy(api, galaxyId, await api.galaxy(galaxyId));
      }).finally(() => (move.disabled = false));
    });
    item.append(move);
    return item;
  });
  element('#sectors').replaceChildren(...items);
}
