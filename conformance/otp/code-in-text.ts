import { OTP_LENGTH } from '../../src/spec/limits.js';

/** Dates, date-times and clock times: the digits log lines carry beside a code. */
const TIMESTAMPS = /\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?|\b\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?\b/g;
/** A whole run of digits: not part of a word, a decimal number or an address. */
const DIGIT_RUN = /(?<![\w.@+-])\d+(?![\w.@])/g;
/** Shorter runs are taken for counts, longer ones for epoch times, not codes. */
const CODE_DIGITS = { min: 4, max: 10 } as const;

/** A code that is not all digits, as a server may send one (OTP-LENGTH fails it): letters and digits, one digit at least or all capitals. */
const CODE_TOKEN = /^(?=[A-Za-z0-9-]*\d|[A-Z0-9-]+$)[A-Za-z0-9-]{4,12}$/;
/** The words that name a code in a line. */
const CODE_WORD = /\b(?:code|otp|passcode|pin)\b/gi;
/** How far after its name a code is looked for ("code for <address> is A7K9Q2"). */
const NAMED_WITHIN = 40;

/** The first word of code form shortly after a word that names a code. */
function namedCode(text: string): string | undefined {
  for (const match of text.matchAll(CODE_WORD)) {
    const start = match.index + match[0].length;
    const code = text
      .slice(start, start + NAMED_WITHIN)
      .split(/[^A-Za-z0-9-]+/)
      .find((word) => CODE_TOKEN.test(word));
    if (code !== undefined) return code;
  }
  return undefined;
}

/** The `code` or `otp` field of a JSON log line. */
function codeField(text: string): string | undefined {
  if (!text.trimStart().startsWith('{')) return undefined;
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    const value = parsed['code'] ?? parsed['otp'];
    return (typeof value === 'string' || typeof value === 'number') && (/^\d+$/.test(String(value)) || CODE_TOKEN.test(String(value)))
      ? String(value)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The code in a line (or a command's output) that names `email`: a JSON line's `code` or `otp` field, else a
 * run of digits outside the address and any timestamp, one of 6 digits preferred, else the letters and digits a
 * "code" names. A code of another form is returned as it is, so that OTP-LENGTH can say so instead of a sign-in
 * waiting for 6 digits that never come.
 */
export function codeInText(text: string, email: string): string | undefined {
  const field = codeField(text);
  if (field !== undefined) return field;
  const rest = (email === '' ? text : text.split(email).join(' ')).replace(TIMESTAMPS, ' ');
  const runs = rest.match(DIGIT_RUN) ?? [];
  const digits = runs.find((run) => run.length === OTP_LENGTH) ?? runs.find((run) => run.length >= CODE_DIGITS.min && run.length <= CODE_DIGITS.max);
  return digits ?? namedCode(rest);
}
