import { Agent } from 'undici';

/** One client as the target sees it: a source address, or an address sent in a header the target trusts. */
export interface Identity {
  label: string;
  dispatcher: Agent;
  /** The header that names this client's address, with its value. */
  addressHeader?: { name: string; value: string };
}

/** Addresses from the benchmarking range (198.18.0.0/15), never routed: labels only, in a header. */
function syntheticAddress(index: number): string {
  return `198.18.${Math.floor(index / 250) % 250}.${(index % 250) + 1}`;
}

/** The value of `header` naming `address`: RFC 7239's `Forwarded` has a syntax of its own. */
function addressHeaderValue(header: string, address: string): string {
  return header.toLowerCase() === 'forwarded' ? `for=${address}` : address;
}

/**
 * The client identities a run can use. Checks that must not share a per-IP bucket take a fresh one;
 * with one address only, every identity is the same client and the scheduler paces for it.
 */
export class IdentityPool {
  readonly #fixed: Identity[];
  /** The header that names the client's address (X-Forwarded-For, CF-Connecting-IP, …), or null. */
  readonly #addressHeader: string | null;
  /** The connection pool of every identity that is no source address of its own. */
  readonly #shared = new Agent({ keepAliveTimeout: 10_000 });
  #next = 0;

  constructor(sourceIps: readonly string[], addressHeader: string | null) {
    this.#addressHeader = addressHeader;
    this.#fixed =
      sourceIps.length > 0
        ? sourceIps.map((ip) => ({ label: ip, dispatcher: new Agent({ localAddress: ip, keepAliveTimeout: 10_000 }) }))
        : [{ label: 'this machine', dispatcher: this.#shared }];
  }

  /** How many clients the target can tell apart. */
  get distinct(): number {
    return this.#addressHeader !== null ? Number.POSITIVE_INFINITY : this.#fixed.length;
  }

  /** A client no earlier check has used, as far as the pool allows. */
  fresh(): Identity {
    const index = this.#next++;
    if (this.#addressHeader !== null) {
      const address = syntheticAddress(index);
      return {
        label: `${this.#addressHeader} ${address}`,
        dispatcher: this.#shared,
        addressHeader: { name: this.#addressHeader, value: addressHeaderValue(this.#addressHeader, address) },
      };
    }
    return this.#fixed[index % this.#fixed.length]!;
  }

  async close(): Promise<void> {
    await Promise.all([...new Set([this.#shared, ...this.#fixed.map((identity) => identity.dispatcher)])].map((agent) => agent.close()));
  }
}

/** `127.0.0.2-127.0.0.200` (or a comma-separated list) as addresses. */
export function expandSourceIps(spec: string): string[] {
  return spec.split(',').flatMap((part) => {
    const [from, to] = part
      .trim()
      .split('-')
      .map((address) => address.trim());
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

/** How the run tells the target its clients apart, for the announcement and for the per-IP checks' failures. */
export function describeAddressing(sourceIps: readonly string[], addressHeader: string | null): string {
  if (addressHeader !== null) return `client addresses sent in ${addressHeader} (pass --client-ip-header NAME if the target reads them from another header)`;
  if (sourceIps.length > 0) return `client addresses are the ${sourceIps.length} source address${sourceIps.length === 1 ? '' : 'es'} of --source-ips`;
  return 'one client address: this machine';
}
