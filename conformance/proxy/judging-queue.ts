import type { TrafficEvent } from './judged-traffic.js';

/** Where the events go: JudgedTraffic. */
export interface TrafficJudge {
  apply(event: TrafficEvent): void;
}

/** How many answered exchanges may wait to be judged before the forwarding path judges them itself: memory stays bounded. */
export const MAX_WAITING_EXCHANGES = 10_000;
/** And how many bytes of their bodies. */
const MAX_WAITING_BYTES = 64 * 1024 * 1024;

/**
 * The proxy's traffic events, judged after the answers are written, in batches once the event loop has served the
 * sockets that were ready: judging every exchange costs the forwarding nothing while the proxy keeps up. None is
 * dropped: past MAX_WAITING_EXCHANGES (or MAX_WAITING_BYTES), the events wait no longer and are judged at once.
 */
export class JudgingQueue {
  readonly #traffic: TrafficJudge;
  #events: TrafficEvent[] = [];
  #waiting = 0;
  #waitingBytes = 0;
  #scheduled = false;

  constructor(traffic: TrafficJudge) {
    this.#traffic = traffic;
  }

  /** Answered exchanges not judged yet. */
  get waiting(): number {
    return this.#waiting;
  }

  push(event: TrafficEvent): void {
    this.#events.push(event);
    if (event.kind === 'end') {
      this.#waiting++;
      this.#waitingBytes += event.passed.requestBody.size + event.passed.responseBody.size;
    }
    if (this.#waiting > MAX_WAITING_EXCHANGES || this.#waitingBytes > MAX_WAITING_BYTES) this.drain();
    else if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => this.drain());
    }
  }

  /** Judges every event waiting, in order. */
  drain(): void {
    this.#scheduled = false;
    const events = this.#events;
    this.#events = [];
    this.#waiting = 0;
    this.#waitingBytes = 0;
    for (const event of events) this.#traffic.apply(event);
  }
}
