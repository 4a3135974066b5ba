/** What REG-OK asks of the register message, in the words a failure prints. */
export const SAYS_CODE_WAS_SENT = 'a message that can say a verification code was sent to the email (not empty, not a bare status word, not about a failure)';

/** How a register message reads against "text saying that a verification code was sent to the email". */
export type MessageReading =
  /** It plainly says so: it names the address, or speaks of a code, its sending or the mail. */
  | 'says-it'
  /** It may say so in words the suite does not know: the check records it as an observation. */
  | 'own-words'
  /** It plainly cannot: empty, a bare status word, or about a failure. */
  | 'cannot';

const SAYS_IT = /\b(code|passcode|otp|one-time|sent|send|sending|verification|verify|e-?mail(ed)?|mail(ed)?|inbox)\b/i;
const BARE_STATUS = /^\W*(ok|okay|success(ful)?|done|created|accepted|registered|true|yes|2\d\d)\W*$/i;
const FAILURE = /\b(error|fail(ed|ure)?|invalid|denied|forbidden|not found|unauthori[sz]ed)\b/i;

/** The spec gives no wording: a message fails only where it plainly cannot say that a code was sent. */
export function readRegisterMessage(message: unknown, email: string | undefined): MessageReading {
  if (typeof message !== 'string' || message.trim() === '' || BARE_STATUS.test(message) || FAILURE.test(message)) return 'cannot';
  const namesAddress = email !== undefined && email !== '' && message.toLowerCase().includes(email.toLowerCase());
  return namesAddress || SAYS_IT.test(message) ? 'says-it' : 'own-words';
}
