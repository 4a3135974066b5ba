import type { JournalEntryView } from '../src/spec/control-schemas.js';
import { CONTROL_ROUTES } from '../src/spec/control-routes.js';
import { byId, dateAndTime, h, row } from './dom.js';

/** Rows kept on the page; the journal itself holds more (its listing pages through it). */
const MAX_ROWS = 200;
/** Entries the stream sends first, so that the page opens on the latest requests. */
const REPLAYED = 50;

function entryRow(entry: JournalEntryView): HTMLElement {
  return row(
    {},
    h('td', { class: 'mono', title: entry.at }, dateAndTime(entry.at)),
    h(
      'td',
      { class: 'mono request' },
      h('span', { class: 'truncate', title: `${entry.method} ${entry.path}` }, `${entry.method} ${entry.path}`),
      ...(entry.generalisedFrom === null ? [] : [h('span', { class: 'generalised' }, ` generalised from ${entry.generalisedFrom}`)]),
    ),
    h('td', { class: `status-${String(entry.status)[0]}` }, String(entry.status)),
    entry.category ?? '—',
    entry.origin === null ? entry.ip : `${entry.ip} (${entry.origin})`,
    entry.fault?.join(', ') ?? '',
  );
}

/**
 * The journal as it happens, from its event stream: the latest entries first, then each request
 * as it is answered. EventSource reconnects by itself, and the stream replays the latest entries each time,
 * so the table is rebuilt on every (re)connection. `onEntry` lets the other panels follow.
 */
export function followJournal(onEntry: () => void): void {
  const body = byId('journal');
  const state = byId('journal-state');
  const source = new EventSource(`${CONTROL_ROUTES.journalStream.pattern}?limit=${REPLAYED}`);
  source.addEventListener('open', () => {
    body.replaceChildren();
    state.textContent = 'live';
    state.className = 'live';
  });
  source.addEventListener('error', () => {
    state.textContent = 'reconnecting…';
    state.className = '';
  });
  source.addEventListener('message', (event: MessageEvent<string>) => {
    body.prepend(entryRow(JSON.parse(event.data) as JournalEntryView));
    while (body.childElementCount > MAX_ROWS) body.lastElementChild?.remove();
    onEntry();
  });
}
