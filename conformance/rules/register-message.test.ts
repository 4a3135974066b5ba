import { describe, expect, it } from 'vitest';
import { readRegisterMessage } from './register-message.js';

describe('readRegisterMessage', () => {
  it('reads a message that names the address or speaks of a code, its sending or the mail as saying it, in any case', () => {
    expect(readRegisterMessage('A verification code was sent to alice@example.com', 'alice@example.com')).toBe('says-it');
    expect(readRegisterMessage('Check ALICE@example.com', 'alice@example.com')).toBe('says-it');
    expect(readRegisterMessage('We SENT you something', undefined)).toBe('says-it');
    expect(readRegisterMessage('A one-time passcode has been e-mailed to you', undefined)).toBe('says-it');
    expect(readRegisterMessage('Look in your inbox', undefined)).toBe('says-it');
  });

  it('takes a message in words it does not know, for an observation', () => {
    expect(readRegisterMessage('Nous vous avons écrit', undefined)).toBe('own-words');
    expect(readRegisterMessage('Almost there: one more step', undefined)).toBe('own-words');
  });

  it('refuses only a message that plainly cannot say it: none, empty, a bare status word, a failure', () => {
    for (const message of [undefined, 42, '', '   ', 'OK', 'ok.', 'Success!', 'Registered', 'done', '200', 'Error', 'Invalid request', 'Registration failed'])
      expect(readRegisterMessage(message, 'alice@example.com'), JSON.stringify(message)).toBe('cannot');
  });
});
