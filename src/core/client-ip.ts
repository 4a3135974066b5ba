import { canonicalIp, firstForwardedHop, LONGEST_ADDRESS } from '../spec/client-address.js';
import type { Variants } from './active-variants.js';

/** How every host tells clients apart (docs/spec-silent.md, "Client IP"): the transport peer, or a trusted forwarded hop; pure, so the core checks addresses with it too. */

/**
 * The client address a trusting host reads from the request's headers: the first X-Forwarded-For hop, or,
 * where the service plays that variant, CF-Connecting-IP first. Undefined when neither holds an address.
 */
export function forwardedClientIp(header: (name: string) => string | undefined, variants: Variants): string | undefined {
  if (variants.has('client-ip-cf-connecting-ip')) {
    const connecting = header('cf-connecting-ip')?.trim();
    const ip = connecting === undefined || connecting.length > LONGEST_ADDRESS ? undefined : canonicalIp(connecting);
    if (ip !== undefined) return ip;
  }
  return firstForwardedHop(header('x-forwarded-for'));
}
