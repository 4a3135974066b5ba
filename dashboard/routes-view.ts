import { byId, fillRows, h, row } from './dom.js';

/** A route as GET /__mock/routes lists it. */
export interface RouteView {
  id: string;
  method: string;
  path: string;
  category: string;
  cost: number | null;
  source: string;
}

/** The API's routes, the spec's and your own; they do not change while the mock runs, so they are read once. */
export function showRoutes(routes: RouteView[]): void {
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
