/**
 * How a client's address is read (docs/spec-silent.md, "Client IP"): one canonical spelling per address, and the
 * first hop of a forwarding header. Pure, so the mock's hosts and the proxy's judge read addresses alike.
 */

const IPV4_MAPPED = '::ffff:';
const OCTET = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
/** Dotted decimal without leading zeros: one spelling per address, so that no address has two buckets. */
const IPV4 = new RegExp(`^${OCTET}\\.${OCTET}\\.${OCTET}\\.${OCTET}$`);
const IPV6_CHARACTERS = /^[0-9A-Fa-f:.]{2,45}$/;
const MAPPED_HEX = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/;
/** The longest spelling of an IP address (IPv6 with an IPv4 tail). */
export const LONGEST_ADDRESS = 45;

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

/** The first hop of a forwarding header's value (the original client), as written, trimmed. */
export function firstHop(value: string): string {
  const comma = value.indexOf(',');
  return (comma === -1 ? value : value.slice(0, comma)).trim();
}

/** The first hop of an X-Forwarded-For value (the original client) when it is an IP address, else undefined. */
export function firstForwardedHop(forwardedFor: string | undefined): string | undefined {
  if (forwardedFor === undefined) return undefined;
  const hop = firstHop(forwardedFor);
  return hop.length > LONGEST_ADDRESS ? undefined : canonicalIp(hop);
}
