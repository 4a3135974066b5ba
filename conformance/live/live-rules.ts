import { SENTENCES, type SentenceId } from '../../src/spec/sentences.js';
import { RULES, RULE_SENTENCES, type RuleId } from '../rules.js';

/**
 * What a client can get wrong, by the sentence it departs from: judged on the requests a proxy sees. The server's
 * departures are judged under the suite's own rules (rules.ts), by the same code that judges a check's traffic.
 */
export const CLIENT_RULES = {
  'CLIENT-BODY-JSON': { sentences: ['EP-BODIES-JSON'], judges: 'a request body that is JSON' },
  'CLIENT-CONTENT-TYPE': { sentences: ['EP-REQUEST-CONTENT-TYPE'], judges: 'Content-Type: application/json on a request with a body' },
  'CLIENT-REGISTER-FIELDS': {
    sentences: ['EP-REGISTER', 'RES-REGISTER-EMAIL', 'RES-REGISTER-CHALLENGE'],
    judges: 'a register request of an object with email (string) and at most challengeToken (string) beside it',
  },
  'CLIENT-VERIFY-FIELDS': {
    sentences: ['EP-VERIFY', 'RES-VERIFY-EMAIL', 'RES-VERIFY-OTP'],
    judges: 'a verify-email request of an object with email (string) and otp (a string of 6 digits), nothing else',
  },
  'CLIENT-BEARER': { sentences: ['AUTH-STEP-BEARER'], judges: 'Authorization: Bearer <token> on the protected routes of the table' },
  'CLIENT-ENCOUNTER': { sentences: ['ERR-STATUS-409'], judges: 'no gameplay request while a fighter encounter the server answered 409 for is still open' },
  'CLIENT-RETRY-AFTER': { sentences: ['LIM-429', 'ERR-STATUS-429'], judges: 'no request to a bucket before the Retry-After of its 429 has passed' },
} as const satisfies Record<string, { sentences: readonly SentenceId[]; judges: string }>;

export type ClientRuleId = keyof typeof CLIENT_RULES;

export type Side = 'client' | 'server';

/** The spec's words a rule rests on, as a finding quotes them. */
export function ruleQuote(rule: ClientRuleId | RuleId): string {
  if (rule in RULES) return RULES[rule as RuleId];
  const ids: readonly SentenceId[] = CLIENT_RULES[rule as ClientRuleId].sentences;
  return ids.map((id) => SENTENCES.find((sentence) => sentence.id === id)?.words ?? id).join(' / ');
}

/** The ids of the spec's sentences a rule rests on. */
export function ruleSentences(rule: ClientRuleId | RuleId): readonly SentenceId[] {
  return rule in RULES ? RULE_SENTENCES[rule as RuleId] : CLIENT_RULES[rule as ClientRuleId].sentences;
}
