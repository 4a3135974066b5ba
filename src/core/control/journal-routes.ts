import { queryParameter } from '../http.js';
import { journalView } from '../journal.js';
import { ControlContent, type ControlContext, type ControlRoute } from './control-route.js';
import { journalFilter } from './journal-filter.js';
import { journalStream } from './journal-stream.js';
import { pageBody, pageQuery, SCAN_BUDGET } from './listing.js';

/** Often enough for proxies that drop a connection idle for 30 s or more. */
const HEARTBEAT_MS = 15_000;
/** What one stream may hold for a slow client (about a thousand entries) before it ends. */
const MAX_BUFFERED_CHARS = 256 * 1024;

const EVENT_STREAM_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'x-accel-buffering': 'no' };

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
      pattern: '/__mock/journal/stream',
      summary: `?${FILTERS}&limit=: server-sent events, one per request as it is answered; limit (default 0) held entries first`,
      contentType: 'text/event-stream',
      handle: ({ request }) => {
        const accept = journalFilter(request, context.store, ['limit']);
        if (request.method === 'HEAD') return new ControlContent(undefined, EVENT_STREAM_HEADERS);
        const limit = (queryParameter(request, 'limit') ?? '0') === '0' ? 0 : pageQuery(request).limit;
        const replay = limit === 0 ? [] : context.journal.page(undefined, limit, SCAN_BUDGET, accept).items.reverse();
        const stream = journalStream(context.journal, { accept, replay, heartbeatMs: HEARTBEAT_MS, maxBufferedChars: MAX_BUFFERED_CHARS });
        return new ControlContent(stream, EVENT_STREAM_HEADERS);
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
