import { journalView, type Journal, type JournalEntry } from '../journal.js';

export interface JournalStreamOptions {
  /** Which entries to send. */
  accept: (entry: JournalEntry) => boolean;
  /** Held entries sent first (the newest of them that `accept` takes, oldest first), before the live ones. */
  replay: readonly JournalEntry[];
  /** A comment is sent this often, so that proxies keep the connection open. */
  heartbeatMs: number;
  /** Characters a client may fall behind by before the stream ends (a browser's EventSource then reconnects). */
  maxBufferedChars: number;
}

/** A comment line of the event-stream format: clients ignore it. */
const comment = (text: string) => `: ${text}\n\n`;
const event = (entry: JournalEntry) => `data: ${JSON.stringify(journalView(entry))}\n\n`;

/**
 * The journal as server-sent events (text/event-stream): one event per entry, as the journal listing shows
 * it. Nothing is held for a client beyond `maxBufferedChars`; cancelling the stream (the host does when
 * the client goes away) unsubscribes it and stops its heartbeat.
 */
export function journalStream(journal: Journal, options: JournalStreamOptions): ReadableStream<string> {
  let stop = () => {};
  let ended = false;
  return new ReadableStream<string>(
    {
      start(controller) {
        const send = (text: string) => {
          controller.enqueue(text);
          if ((controller.desiredSize ?? 0) >= 0) return;
          ended = true;
          stop();
          controller.enqueue(comment('this client fell too far behind; the stream ends'));
          controller.close();
        };
        // Reconnecting clients wait this long before they try again.
        controller.enqueue('retry: 1000\n\n');
        for (const entry of options.replay) if (!ended) send(event(entry));
        if (ended) return;
        const unsubscribe = journal.subscribe((entry) => {
          if (options.accept(entry)) send(event(entry));
        });
        const heartbeat = setInterval(() => send(comment('heartbeat')), options.heartbeatMs);
        // In Node, a stream nobody reads or cancels must not keep the process alive.
        heartbeat.unref?.();
        stop = () => {
          unsubscribe();
          clearInterval(heartbeat);
        };
      },
      cancel: () => stop(),
    },
    { highWaterMark: options.maxBufferedChars, size: (chunk) => chunk.length },
  );
}
