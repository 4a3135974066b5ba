import type { RouteListing } from '../src/spec/control-schemas.js';
import { byId, fillRows, h, row } from './dom.js';

/** The API's routes, the spec's and your own (the control API and a watched config file change them while the mock runs). */
export function showRoutes(routes: readonly RouteListing[]): void {
  const rows = routes.map((route) =>
    row(
      { 'data-route': route.id },
      h('td', { class: 'mono' }, `${route.method} ${route.path}`),
      route.category,
      route.cost === null ? '—' : String(route.cost),
      route.source,
    ),
  );
  fillRows(byId('routes'), rows, 'No routes.');
}
