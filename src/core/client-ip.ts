import type { Variants } from './active-variants.js';

/** How every host tells clients apart (docs/spec-silent.md, "Client IP"): the transport peer, or a trusted forwarded hop; pure, so the core checks addresses with it too. */

const IPV4_MAPPED = '::ffff:';
const OCTET = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
/** Dotted decimal without leading zeros: one spelling per address, so that no address has two buckets. */
const IPV4 = new RegExp(`^${OCTET}\\.${OCTET}\\.${OCTET}\\.${OCTET}$`);
const IPV6_CHARACTERS = /^[0-9A-Fa-f:.]{2,45}$/;
const MAPPED_HEX = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/;

/** An IPv4 client on a dual-stack socket, without its `::ffff:` prefix. */
export function withoutIpv4Mapping(address: string): string {
  return address.startsWith(IPV4_MAPPED) ? address.slice(IPV4_MAPPED.length) : address;
}

function ipv4FromMappedHex(canonical: string): string {
  const groups = MAPPED_HEX.exec(canonical);
  if (groups === null) return canonical;
  const [high, low] = [Number.parseInt(groups[1]!, 16), Number.parseInt(groups[2]!, 16)];
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/**
 * The address in one canonical spelling (IPv6 compressed in lower case as the URL standard writes it,
 * IPv4-mapped IPv6 as IPv4), or undefined when the text is not an IP address. The result is always a new
 * short string: never a slice that would keep a long header alive in a bucket key.
 */
export function canonicalIp(text: string): string | undefined {
  if (IPV4.test(text)) return text.split('.').map(Number).join('.');
  if (!IPV6_CHARACTERS.test(text) || !text.includes(':')) return undefined;
  const unmapped = withoutIpv4Mapping(text.toLowerCase());
  if (IPV4.test(unmapped)) return unmapped.split('.').map(Number).join('.');
  const url = `http://[${text}]/`;
  if (!URL.canParse(url)) return undefined;
  return ipv4FromMappedHex(new URL(url).hostname.slice(1, -1));
}

/** The first hop of an X-Forwarded-For value (the original client) when it is an IP address, else undefined. */
export function firstForwardedHop(forwardedFor: string | undefined): string | undefined {
  if (forwardedFor === undefined) return undefined;
  const comma = forwardedFor.indexOf(',');
  const hop = (comma === -1 ? forwardedFor : forwardedFor.slice(0, comma)).trim();
  return hop.length > 45 ? undefined : canonicalIp(hop);
}

/**
 * The client address a trusting host reads from the request's headers: the first X-Forwarded-For hop, or,
 * where the service plays that variant, CF-Connecting-IP first. Undefined when neither holds an address.
 */
export function forwardedClientIp(header: (name: string) => string | undefined, variants: Variants): string | undefined {
  if (variants.has('client-ip-cf-connecting-ip')) {
    const connecting = header('cf-connecting-ip')?.trim();
    const ip = connecting === undefined || connecting.length > 45 ? undefined : canonicalIp(connecting);
    if (ip !== undefined) return ip;
  }
  return firstForwardedHop(header('x-forwarded-for'));
}
