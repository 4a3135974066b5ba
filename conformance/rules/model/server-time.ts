/**
 * When a server produced a response, on the server's own clock, as an interval: every time-like
 * header (X-RateLimit-Reset, Retry-After) is judged against it, never against a single instant.
 */
export interface TimeInterval {
  readonly fromMs: number;
  readonly toMs: number;
}

export function instant(ms: number): TimeInterval {
  return { fromMs: ms, toMs: ms };
}

/** The Date header names a whole second: the response was made somewhere within it. Undefined when absent or unparsable. */
export function fromDateHeader(value: string | undefined): TimeInterval | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : { fromMs: ms, toMs: ms + 999 };
}

export function widen(interval: TimeInterval, byMs: number): TimeInterval {
  return { fromMs: interval.fromMs - byMs, toMs: interval.toMs + byMs };
}

export function overlaps(a: TimeInterval, b: TimeInterval): boolean {
  return a.fromMs <= b.toMs && b.fromMs <= a.toMs;
}

/** The middle of an interval, to the millisecond: the one instant taken for it. */
export const midpoint = (interval: TimeInterval) => Math.round((interval.fromMs + interval.toMs) / 2);

/** What two overlapping intervals share. */
export function intersection(a: TimeInterval, b: TimeInterval): TimeInterval {
  return { fromMs: Math.max(a.fromMs, b.fromMs), toMs: Math.min(a.toMs, b.toMs) };
}

/** How long from `from` until `to`: the shortest and the longest it can be. */
export function span(from: TimeInterval, to: TimeInterval): TimeInterval {
  return { fromMs: to.fromMs - from.toMs, toMs: to.toMs - from.fromMs };
}

/** `12:00:01–12:00:02` style, for messages. */
export function describeInterval(interval: TimeInterval): string {
  const at = (ms: number) => (Number.isFinite(ms) && Math.abs(ms) < 8.64e15 ? new Date(ms).toISOString().slice(11, 23) : String(ms));
  return interval.fromMs === interval.toMs ? at(interval.fromMs) : `${at(interval.fromMs)}–${at(interval.toMs)}`;
}

/** When the server made an answer: its Date header, or this machine's time while the request was out, without one. */
export function answeredAt(exchange: { headers: Readonly<Record<string, string>>; sentAt: number; receivedAt: number }): TimeInterval {
  return fromDateHeader(exchange.headers['date']) ?? { fromMs: exchange.sentAt, toMs: exchange.receivedAt };
}

/**
 * How far a server's clock stands from this machine's, learned from its Date headers, each narrowing what the
 * ones before allowed: in real time, windows and Reset are judged on the server's clock, whatever this machine's says.
 */
export class ServerClock {
  /** The server's clock minus this machine's, as an interval; undefined until a Date header was seen. */
  #offset: TimeInterval | undefined;

  /** When the server made an answer, on its clock: the round trip moved by the offset, within the Date header's second. */
  answeredAt(exchange: { headers: Readonly<Record<string, string>>; sentAt: number; receivedAt: number }): TimeInterval {
    const date = fromDateHeader(exchange.headers['date']);
    if (date !== undefined) {
      const sample = { fromMs: date.fromMs - exchange.receivedAt, toMs: date.toMs - exchange.sentAt };
      const offset = this.#offset;
      // A clock set anew on the server (or a Date header of another machine behind a balancer) starts the estimate again.
      this.#offset = offset !== undefined && overlaps(offset, sample) ? intersection(offset, sample) : sample;
    }
    const offset = this.#offset ?? instant(0);
    const moved = { fromMs: exchange.sentAt + offset.fromMs, toMs: exchange.receivedAt + offset.toMs };
    return date === undefined || !overlaps(date, moved) ? moved : intersection(date, moved);
  }

  /** An instant of this machine's on the server's clock, as well as the answers so far tell it. */
  serverMs(localMs: number): number {
    return localMs + midpoint(this.#offset ?? instant(0));
  }
}
