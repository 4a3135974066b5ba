let cachedSecond = Number.NaN;
let cachedDate = '';

/**
 * The Date header for an instant of the service's clock (which the control API moves), so that a client
 * comparing Date with X-RateLimit-Reset or expiresAt sees one time. Formatted once per second, as Node does.
 */
export function httpDate(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== cachedSecond) {
    cachedSecond = second;
    cachedDate = new Date(second * 1000).toUTCString();
  }
  return cachedDate;
}
