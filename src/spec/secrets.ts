/**
 * Which values of a request or an answer are secrets, and how they are shown where they are kept: the mock's
 * journal, and the suite's and the proxy's reports (HAR files, JSON reports, findings pages).
 */

/** Names of JSON fields, query parameters and headers whose values are secrets: tokens, codes, passwords, keys. */
const SECRET_NAME = /tokens?$|otp|passwords?$|secrets?$|api-?key$/i;
/** A field named like a code is a secret when its value is digits (a verification code), not when it is an error's code. */
const CODE_NAME = /codes?$/i;
const DIGITS = /^\d{4,10}$/;
/** A JSON field whose value is a string or a number: `"otp": "123456"`, `"code": 123456`. */
const JSON_SCALAR_FIELD = /"((?:[^"\\]|\\.)*)"(\s*:\s*)(?:"((?:[^"\\]|\\.)*)"|(-?\d+(?:\.\d+)?))/g;
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);

/** A secret as it is shown: enough of a long one to tell two apart, nothing of a short one. */
function maskedSecret(value: string): string {
  return value.length >= 16 ? `${value.slice(0, 8)}…` : '…';
}

const isSecret = (name: string, value: string) => SECRET_NAME.test(name) || (CODE_NAME.test(name) && DIGITS.test(value));

/** A body's text with the values of its secret fields masked, wherever they are and whether or not it is whole JSON. */
export function maskedBody(text: string): string {
  return text.replace(JSON_SCALAR_FIELD, (field, name: string, colon: string, quoted: string | undefined, number: string | undefined) => {
    const value = quoted ?? number!;
    return isSecret(name, value) ? `"${name}"${colon}"${maskedSecret(value)}"` : field;
  });
}

/** A URL with the values of its secret query parameters masked (`?token=…`). */
export function maskedUrl(url: string): string {
  if (!URL.canParse(url) || !url.includes('?')) return url;
  const parsed = new URL(url);
  let masked = false;
  for (const [name, value] of [...parsed.searchParams]) {
    if (!isSecret(name, value)) continue;
    parsed.searchParams.set(name, maskedSecret(value));
    masked = true;
  }
  return masked ? parsed.toString() : url;
}

/** A header's value with its credential masked: a token past its scheme, a cookie's value, a key. */
export function maskedHeaderValue(name: string, value: string): string {
  if (name === 'authorization' || name === 'proxy-authorization') return `${value.slice(0, 16)}…`;
  if (name === 'cookie') return value.replace(/=([^;\s]+)/g, (_, secret: string) => `=${maskedSecret(secret)}`);
  // One cookie a line, its value before the first `;` (its attributes after are no secret).
  if (name === 'set-cookie') return value.replace(/^([^=\n]*)=([^;\n]*)/gm, (_, cookie: string, secret: string) => `${cookie}=${maskedSecret(secret)}`);
  return SECRET_HEADERS.has(name) ? maskedSecret(value) : value;
}
