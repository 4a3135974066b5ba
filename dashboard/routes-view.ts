import type { RouteListing } from '../src/spec/control-schemas.js';
import { byId, fillRows, h, row } from './dom.js';

/** What a route answered from a recorded answer of another value: `query id=13 ← query id=1 ×2`, one per request. */
function generalisedText(generalised: RouteListing['generalised']): string {
  if (generalised === undefined || generalised.length === 0) return '—';
  return generalised.map(({ request, from, times }) => `${request} ← ${from} ×${times}`).join('; ');
}

/** The API's routes, the spec's and your own (the control API and a watched config file change them while the mock runs). */
export function showRoutes(routes: readonly RouteListing[]): void {
  const rows = routes.map((route) =>
    row(
      { 'data-route': route.id },
      h('td', { class: 'mono' }, `${route.method} ${route.path}`),
      route.category,
      route.cost === null ? '—' : String(route.cost),
      route.source,
      generalisedText(route.generalised),
    ),
  );
  fillRows(byId('routes'), rows, 'No routes.');
}
