import { Agent } from 'undici';

/** One client as the target sees it: a source address, or a forwarded address it trusts. */
export interface Identity {
  label: string;
  dispatcher: Agent;
  forwardedFor?: string;
}

/** Addresses from the benchmarking range (198.18.0.0/15), never routed: labels only, in a header. */
function syntheticAddress(index: number): string {
  return `198.18.${Math.floor(index / 250) % 250}.${(index % 250) + 1}`;
}

/**
 * The client identities a run can use. Checks that must not share a per-IP bucket take a fresh one;
 * with one address only, every identity is the same client and the scheduler paces for it.
 */
export class IdentityPool {
  readonly #fixed: Identity[];
  readonly #forwardedFor: boolean;
  /** The connection pool of every identity that is no source address of its own. */
  readonly #shared = new Agent({ keepAliveTimeout: 10_000 });
  #next = 0;

  constructor(sourceIps: readonly string[], forwardedFor: boolean) {
    this.#forwardedFor = forwardedFor;
    this.#fixed =
      sourceIps.length > 0
        ? sourceIps.map((ip) => ({ label: ip, dispatcher: new Agent({ localAddress: ip, keepAliveTimeout: 10_000 }) }))
        : [{ label: 'this machine', dispatcher: this.#shared }];
  }

  /** How many clients the target can tell apart. */
  get distinct(): number {
    return this.#forwardedFor ? Number.POSITIVE_INFINITY : this.#fixed.length;
  }

  /** A client no earlier check has used, as far as the pool allows. */
  fresh(): Identity {
    const index = this.#next++;
    if (this.#forwardedFor) return { label: `X-Forwarded-For ${syntheticAddress(index)}`, dispatcher: this.#shared, forwardedFor: syntheticAddress(index) };
    return this.#fixed[index % this.#fixed.length]!;
  }

  async close(): Promise<void> {
    await Promise.all([...new Set([this.#shared, ...this.#fixed.map((identity) => identity.dispatcher)])].map((agent) => agent.close()));
  }
}

/** `127.0.0.2-127.0.0.200` (or a comma-separated list) as addresses. */
export function expandSourceIps(spec: string): string[] {
  return spec.split(',').flatMap((part) => {
    const [from, to] = part.trim().split('-').map((address) => address.trim());
    if (to === undefined) return [from!];
    const prefix = from!.slice(0, from!.lastIndexOf('.') + 1);
    const start = Number(from!.slice(prefix.length));
    const end = Number(to.includes('.') ? to.slice(to.lastIndexOf('.') + 1) : to);
    if (!prefix || !Number.isInteger(start) || !Number.isInteger(end) || end < start || end > 255) {
      throw new Error(`--source-ips ${part.trim()} is not a range like 127.0.0.2-127.0.0.200`);
    }
    return Array.from({ length: end - start + 1 }, (_, offset) => `${prefix}${start + offset}`);
  });
}
