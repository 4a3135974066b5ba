/** The game screen: the ship where the server says it is, its sector (asked by query), and a move to another. */
import type { GameApi, Sector, Ship } from './game-api.js';
import { element, guarded, showScreen } from './page.js';

/** Galaxy of a ship created without one (by another client, or before this client sent galaxyId). */
const DEFAULT_GALAXY_ID = 1;

export async function showGame(api: GameApi, ship: Ship): Promise<void> {
  const galaxyId = ship.galaxyId ?? DEFAULT_GALAXY_ID;
  element('#ship-title').textContent = `${ship.name}${ship.classId === undefined ? '' : ` (${ship.classId})`}`;
  element('#galaxy-id').textContent = String(galaxyId);
  const sectors = await api.sectors(galaxyId);
  await renderShip(api, galaxyId, sectors, ship);
  showScreen('game');
}

/** The ship's own fields, as the server keeps them: its sector and credits. */
async function renderShip(api: GameApi, galaxyId: number, sectors: readonly Sector[], ship: Ship): Promise<void> {
  const here = await api.sector(galaxyId, ship.current_sector);
  element('#current-sector').textContent = here.name;
  element('#credits').textContent = String(ship.credits);
  const items = sectors.map((sector) => {
    const item = document.createElement('li');
    item.dataset['sectorId'] = String(sector.id);
    item.append(sector.name);
    if (sector.id === ship.current_sector) {
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
        const moved = await api.ship();
        if (moved !== null) await renderShip(api, galaxyId, sectors, moved);
      }).finally(() => (move.disabled = false));
    });
    item.append(move);
    return item;
  });
  element('#sectors').replaceChildren(...items);
}
