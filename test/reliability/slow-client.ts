import { connect } from 'node:net';

/** Bytes a second once answered: a client that keeps sending learns quickly whether the server closed. */
const AFTER_ANSWER_EVERY_MS = 50;
/** A connection still open this long after the answer began has been held open: the client hangs up itself. */
const GIVE_UP_AFTER_ANSWER_MS = 5_000;

/**
 * Sends `head` and then one more byte of `trickle` every `everyMs`, as a slow client does, and goes on sending
 * after the answer, faster (it keeps its side open, as a hostile client would): resolves with what the server
 * answered, when the answer began and when the connection was closed, from the first byte. The close may come as
 * the server's FIN or, where the client's bytes reached a server that closed without reading them, as a reset:
 * the answer's first byte is the time both read alike. A server that never closes it shows as closed when the
 * client gives up, 5 s after the answer began.
 */
export function slowClient(port: number, head: string, trickle: string, everyMs = 1_000): Promise<{ answeredMs: number; closedMs: number; answer: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    const received: Buffer[] = [];
    let started = 0;
    let answeredMs = Number.NaN;
    let sent = 0;
    const send = () => {
      if (sent < trickle.length && socket.writable) socket.write(trickle[sent++]!);
    };
    let timer = setInterval(send, everyMs);
    socket.once('connect', () => {
      started = performance.now();
      socket.write(head);
    });
    socket.on('data', (chunk: Buffer) => {
      if (received.length === 0) {
        answeredMs = performance.now() - started;
        setTimeout(() => socket.destroy(), GIVE_UP_AFTER_ANSWER_MS).unref();
      }
      received.push(chunk);
    });
    socket.once('end', () => {
      clearInterval(timer);
      timer = setInterval(send, AFTER_ANSWER_EVERY_MS);
    });
    // A write after the server closed fails with EPIPE or ECONNRESET: the close that follows tells when.
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ answeredMs, closedMs: performance.now() - started, answer: Buffer.concat(received).toString('utf8') });
    });
  });
}
