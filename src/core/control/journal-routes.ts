import { journalView } from '../journal.js';
import type { ControlContext, ControlRoute } from './control-route.js';
import { journalFilter } from './journal-filter.js';
import { pageBody, pageQuery, SCAN_BUDGET } from './listing.js';

const FILTERS = 'method=&path=&status=&ip=&player=&origin=&from=&to=&fault=';

/** The requests the API answered: listed page by page, or counted, for assertions on what a client sent. */
export function journalRoutes(context: ControlContext): ControlRoute[] {
  return [
    {
      method: 'GET',
      pattern: '/__mock/journal',
      summary: `?${FILTERS}&limit=&cursor=: the last requests (method, path, status, category, faults met), newest first; nextCursor goes on`,
      handle: ({ request }) => {
        const accept = journalFilter(request, context.store, ['limit', 'cursor']);
        const { limit, cursor } = pageQuery(request);
        const page = context.journal.page(cursor, limit, SCAN_BUDGET, accept);
        return pageBody('entries', page.items.map(journalView), page.next);
      },
    },
    {
      method: 'GET',
      pattern: '/__mock/journal/count',
      summary: `?${FILTERS}: how many requests of the whole journal match the filters`,
      handle: ({ request }) => ({ count: context.journal.count(journalFilter(request, context.store)) }),
    },
  ];
}
