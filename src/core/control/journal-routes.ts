import { queryParameter } from '../http.js';
import { journalView } from '../journal.js';
import { ControlContent, type ControlContext, type ControlRoute, declaredRoute } from './control-route.js';
import { JOURNAL_FILTERS } from '../../spec/control-routes.js';
import { journalFilter } from './journal-filter.js';
import { journalHar } from './journal-har.js';
import { journalStream } from './journal-stream.js';
import { PAGE_QUERY, pageBody, pageQuery, SCAN_BUDGET } from './listing.js';

/** Often enough for proxies that drop a connection idle for 30 s or more. */
const HEARTBEAT_MS = 15_000;
/** What one stream may hold for a slow client (about a thousand entries) before it ends. */
const MAX_BUFFERED_CHARS = 256 * 1024;

const EVENT_STREAM_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'x-accel-buffering': 'no' };

/**
 * The requests the API answered: listed page by page, as HAR, or counted, for assertions on what a client sent;
 * taken out, as a conformance run takes out its own.
 */
export function journalRoutes(context: ControlContext): ControlRoute[] {
  return [
    declaredRoute(
      'journal',
      ({ request }) => {
        const accept = journalFilter(request, context.store, ['limit', 'cursor']);
        const { limit, cursor } = pageQuery(request);
        const page = context.journal.page(cursor, limit, SCAN_BUDGET, accept);
        return pageBody('entries', page.items.map(journalView), page.next);
      },
      { query: [...JOURNAL_FILTERS, ...PAGE_QUERY] },
    ),
    declaredRoute('removeJournal', ({ request }) => ({ removed: context.journal.remove(journalFilter(request, context.store)) }), {
      query: JOURNAL_FILTERS,
    }),
    declaredRoute(
      'journalStream',
      ({ request }) => {
        const accept = journalFilter(request, context.store, ['limit']);
        if (request.method === 'HEAD') return new ControlContent(undefined, EVENT_STREAM_HEADERS);
        const limit = (queryParameter(request, 'limit') ?? '0') === '0' ? 0 : pageQuery(request).limit;
        const replay = limit === 0 ? [] : context.journal.page(undefined, limit, SCAN_BUDGET, accept).items.reverse();
        const stream = journalStream(context.journal, { accept, replay, heartbeatMs: HEARTBEAT_MS, maxBufferedChars: MAX_BUFFERED_CHARS });
        return new ControlContent(stream, EVENT_STREAM_HEADERS);
      },
      { query: [...JOURNAL_FILTERS, 'limit'] },
    ),
    declaredRoute(
      'journalHar',
      ({ request }) => {
        const accept = journalFilter(request, context.store);
        const host = request.headers['host'];
        const origin = `http://${typeof host === 'string' ? host : 'localhost'}`;
        return journalHar(context.journal.newest().filter(accept).reverse(), origin, context.options.version);
      },
      { query: JOURNAL_FILTERS },
    ),
    declaredRoute('journalCount', ({ request }) => ({ count: context.journal.count(journalFilter(request, context.store)) }), { query: JOURNAL_FILTERS }),
  ];
}
