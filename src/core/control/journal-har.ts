import { type HarDocument, harDocument, harEntry } from '../../spec/har.js';
import type { JournalEntry } from '../journal.js';

/** What the journal knows beside method, path and status, for a person reading the entry. */
function describe(entry: JournalEntry): string {
  return [
    `client ${entry.ip}`,
    `route ${entry.route ?? 'none'}`,
    `category ${entry.category ?? 'none'}`,
    ...(entry.playerId === null ? [] : [`player ${entry.playerId}`]),
    ...(entry.unknownFields === null ? [] : [`fields the spec does not name: ${entry.unknownFields.join(', ')}`]),
    ...(entry.fault === null ? [] : [`faults: ${entry.fault.join(', ')}`]),
  ].join('; ');
}

/**
 * Journal entries, oldest first, as a HAR 1.2 document: each request's headers and body as the journal keeps them
 * (secrets masked); no answer's headers or body. Its time is when the answer was given on the service's clock:
 * each entry's time is 0.
 */
export function journalHar(entries: readonly JournalEntry[], origin: string, creatorVersion: string): HarDocument {
  return harDocument(
    creatorVersion,
    entries.map((entry) =>
      harEntry({
        method: entry.method,
        url: new URL(entry.path, origin).toString(),
        requestHeaders: entry.requestHeaders,
        requestBody: entry.requestBody ?? undefined,
        status: entry.status,
        responseHeaders: {},
        responseText: undefined,
        startedAt: entry.atMs,
        durationMs: 0,
        comment: describe(entry),
      }),
    ),
  );
}
