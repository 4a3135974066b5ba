import type { RuleId } from '../rules.js';

/** The rules the fuzzer's judge (judge.ts) reports findings under, each with what it judges on every response of a sequence. */
export const FUZZ_PROPERTIES = {
  'RL-WINDOW': "a 429 exactly when the model's bucket is spent, success where no limit applies, and Reset ending the window the model opened",
  'RL-AUTH-IP': 'a game-origin auth request is counted in its IP bucket and refused 429 once it is spent',
  'RL-EXEMPT': 'no 429 for a game-origin request in an exempt bucket',
  'RL-LIMIT': 'X-RateLimit-Limit present on counted requests and equal to the bucket size',
  'RL-REMAINING': 'X-RateLimit-Remaining one less per counted request, per bucket',
  'RL-RESET': 'X-RateLimit-Reset present, in one unit throughout the run',
  'RL-429': "Retry-After on every 429, an integer consistent with the window's end",
  'ENV-ERROR': 'an error envelope on every 4xx, and a 4xx where a refusal is due',
  'ENV-SUCCESS': 'success: true on every 2xx but health',
  'BODY-JSON': 'a JSON object from /health',
} as const satisfies Partial<Record<RuleId, string>>;

export type FuzzRuleId = keyof typeof FUZZ_PROPERTIES;
