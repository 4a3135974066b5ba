import type { ServerResponse } from 'node:http';
import type { ServiceResponse } from '../core/http.js';

/** Ends the open streams of one server: a shutdown calls each, so that none holds it open. */
export type OpenStreams = Set<() => void>;

/** Resolves once the socket can take more, or the client has gone. */
function drained(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    if (response.destroyed) return resolve();
    const done = () => {
      response.off('drain', done).off('close', done);
      resolve();
    };
    response.on('drain', done).on('close', done);
  });
}

/**
 * Writes a stream as it comes, waiting for the socket when it is full, so that what a slow client has not
 * read stays in the stream's own bounded queue. The client going away (or `streams` being ended by a
 * shutdown) cancels it. The connection closes with it: a stream has had it to itself.
 */
async function sendStream(
  response: ServerResponse,
  status: number,
  headers: Record<string, string>,
  stream: ReadableStream<string>,
  streams: OpenStreams,
): Promise<void> {
  const reader = stream.getReader();
  const end = () => void reader.cancel().catch(() => {});
  streams.add(end);
  response.once('close', end);
  response.writeHead(status, { ...headers, connection: 'close' });
  try {
    for (let read = await reader.read(); !read.done && !response.destroyed; read = await reader.read()) {
      if (!response.write(read.value)) await drained(response);
    }
  } catch {
    // The stream failed: end the response as if it had ended.
  } finally {
    streams.delete(end);
    response.off('close', end);
    end();
    response.end();
  }
}

/** A body other than JSON (the service sent one): text with its length, or a stream. */
export function sendContent(response: ServerResponse, answer: ServiceResponse, closeConnection: boolean, streams: OpenStreams): void {
  const { content, status, headers } = answer;
  if (content === undefined) return;
  if (typeof content === 'string') {
    const all: Record<string, string | number> = { ...headers, 'content-length': Buffer.byteLength(content) };
    if (closeConnection) all['connection'] = 'close';
    response.writeHead(status, all).end(content);
  } else if (closeConnection) {
    // The server is shutting down: no stream starts now.
    void content.cancel();
    response.writeHead(status, { ...headers, connection: 'close' }).end();
  } else {
    void sendStream(response, status, headers, content, streams);
  }
}
