/** How every host tells clients apart (README, "Client IP"): the transport peer, or a trusted forwarded hop. */

/** An IPv4 client on a dual-stack socket, without its `::ffff:` prefix. */
export function withoutIpv4Mapping(address: string): string {
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

/** The first hop of an X-Forwarded-For value (the original client), or undefined when there is none. */
export function firstForwardedHop(forwardedFor: string | undefined): string | undefined {
  return forwardedFor?.split(',')[0]?.trim() || undefined;
}
