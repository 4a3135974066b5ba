import { describe, expect, it } from 'vitest';
import { saysCodeWasSent } from './register-message.js';

describe('saysCodeWasSent', () => {
  it('takes any wording that names the address or says code, sent or verification, in any case', () => {
    expect(saysCodeWasSent('A verification code was sent to alice@example.com', 'alice@example.com')).toBe(true);
    expect(saysCodeWasSent('Check ALICE@example.com', 'alice@example.com')).toBe(true);
    expect(saysCodeWasSent('We SENT you something', undefined)).toBe(true);
    expect(saysCodeWasSent('Your sign-in code is on its way', undefined)).toBe(true);
    expect(saysCodeWasSent('Verification pending', undefined)).toBe(true);
  });

  it('refuses a message that says none of it', () => {
    expect(saysCodeWasSent('OK', 'alice@example.com')).toBe(false);
    expect(saysCodeWasSent('Registered', undefined)).toBe(false);
    // A word that merely contains one of them is not it.
    expect(saysCodeWasSent('Unsent codex', '')).toBe(false);
  });
});
