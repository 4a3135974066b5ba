/** What REG-OK asks of the register message, in the words a failure prints. */
export const SAYS_CODE_WAS_SENT = 'a message saying that a verification code was sent to the email (it names the address, or says code, sent or verification)';

const CODE_WAS_SENT_WORDS = /\b(code|sent|verification)\b/i;

/**
 * "Human-readable text saying that a verification code was sent to the email", read leniently: the spec gives
 * no wording, so any message naming the address or one of those words says it.
 */
export function saysCodeWasSent(message: string, email: string | undefined): boolean {
  return CODE_WAS_SENT_WORDS.test(message) || (email !== undefined && email !== '' && message.toLowerCase().includes(email.toLowerCase()));
}
