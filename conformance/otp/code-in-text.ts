import { OTP_LENGTH } from '../../src/spec/limits.js';

/** Dates, date-times and clock times: the digits log lines carry beside a code. */
const TIMESTAMPS = /\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?|\b\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?\b/g;
/** A whole run of digits: not part of a word, a decimal number or an address. */
const DIGIT_RUN = /(?<![\w.@+-])\d+(?![\w.@])/g;
/** Shorter runs are taken for counts, longer ones for epoch times, not codes. */
const CODE_DIGITS = { min: 4, max: 10 } as const;

/** The `code` or `otp` field of a JSON log line, as digits. */
function codeField(text: string): string | undefined {
  if (!text.trimStart().startsWith('{')) return undefined;
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    const value = parsed['code'] ?? parsed['otp'];
    return (typeof value === 'string' || typeof value === 'number') && /^\d+$/.test(String(value)) ? String(value) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The code in a line (or a command's output) that names `email`: a JSON line's `code` or `otp` field, else a
 * run of digits outside the address and any timestamp, one of 6 digits preferred. A code of another length is
 * returned as it is, so that OTP-LENGTH can say so instead of a sign-in waiting for 6 digits that never come.
 */
export function codeInText(text: string, email: string): string | undefined {
  const field = codeField(text);
  if (field !== undefined) return field;
  const rest = (email === '' ? text : text.split(email).join(' ')).replace(TIMESTAMPS, ' ');
  const runs = rest.match(DIGIT_RUN) ?? [];
  return runs.find((run) => run.length === OTP_LENGTH) ?? runs.find((run) => run.length >= CODE_DIGITS.min && run.length <= CODE_DIGITS.max);
}
