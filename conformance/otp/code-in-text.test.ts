import { describe, expect, it } from 'vitest';
import { codeInText } from './code-in-text.js';

const EMAIL = 'conformance+verify-906107013-m1x2-3@example.com';

describe('codeInText', () => {
  it.each([
    ["the mock's console line", `OTP for ${EMAIL}: 042517 (expires 2026-11-21T10:15:00.000Z)`, '042517'],
    ['a log line behind a timestamp', `2026-11-21T10:00:00Z INFO code 731204 sent to ${EMAIL} at 10:00:00`, '731204'],
    ['a JSON log line (its code field, not its epoch time)', `{"level":30,"time":1795251156707,"email":"${EMAIL}","code":"004213","msg":"OTP"}`, '004213'],
    ['a 5-digit code', `OTP for ${EMAIL}: 04251 (expires 2026-11-21T10:15:00.000Z)`, '04251'],
    ['a 7-digit code', `Your code for ${EMAIL} is 0425170`, '0425170'],
    ['a 6-digit code preferred over a 5-digit count', `attempt 12345 for ${EMAIL}: code 123456`, '123456'],
    ['a code of letters and digits a line names', `Your code for ${EMAIL} is A7K9Q2`, 'A7K9Q2'],
    ['a code of capitals after "otp:"', `otp: QWERTY sent to ${EMAIL}`, 'QWERTY'],
    ['a JSON code field of letters and digits', `{"email":"${EMAIL}","otp":"x4b9k2"}`, 'x4b9k2'],
  ])('%s', (_what, text, code) => {
    expect(codeInText(text, EMAIL)).toBe(code);
  });

  it.each([
    ['digits only in the address and the time', `registered ${EMAIL} at 2026-11-21T10:00:00Z`],
    ['a version and a short count', `mailer 1.2.3 sent 2 messages to ${EMAIL}`],
    ['words after "code" that hold no digit', `code sent to ${EMAIL}, check your inbox`],
  ])('finds no code in %s', (_what, text) => {
    expect(codeInText(text, EMAIL)).toBeUndefined();
  });
});
