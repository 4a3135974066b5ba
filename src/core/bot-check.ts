import { ApiError, MissingFieldError } from './errors.js';

/** The web client's bot-check: off unless configured, as the spec allows. */
export type BotCheck = { mode: 'off' } | { mode: 'always-pass' } | { mode: 'always-fail' } | { mode: 'tokens'; tokens: readonly string[] };

export function assertChallengePassed(botCheck: BotCheck, challengeToken: string | undefined): void {
  if (botCheck.mode === 'off') return;
  if (challengeToken === undefined || challengeToken === '') {
    throw new MissingFieldError('challengeToken', 'complete the bot check');
  }
  const passed = botCheck.mode === 'always-pass' || (botCheck.mode === 'tokens' && botCheck.tokens.includes(challengeToken));
  if (!passed) throw new ApiError(400, 'Bot check failed: challengeToken was not accepted');
}
