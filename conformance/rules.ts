import type { SentenceId } from '../src/spec/sentences.js';

/** The spec sentences the checks test, by id. A check's title starts with its rule's id. */
export const RULES = {
  'BODY-JSON': 'Every response body is JSON.',
  'ENV-SUCCESS': 'Successful bodies contain success: true.',
  'ENV-ERROR': 'Error body: {error: <message string>}.',
  'HEALTH-NOAUTH': 'The health endpoint requires no authentication.',
  'HEALTH-BODY': 'status: The value "ok" when healthy. version: Service version, dotted numeric form <major>.<minor>.<patch>.',
  'REG-OK': 'Register response: success: true, message: Human-readable text saying that a verification code was sent to the email.',
  'REG-MISSING': '400 Bad request: missing or invalid parameters',
  'REG-INVALID': '400 Bad request: missing or invalid parameters (email: Email address to verify)',
  'REG-DISPOSABLE': 'Registration with a disposable-domain email is rejected.',
  'VERIFY-OK': 'Verify-email response: success: true, authToken: Bearer token, UUID format, expiresAt: ISO 8601 UTC timestamp at which the token expires.',
  'VERIFY-MISSING': '400 Bad request: missing or invalid parameters',
  'VERIFY-WRONG': 'Correct otp, within 15 minutes of issue → Verified with active token (a wrong code is not).',
  'VERIFY-BOUND': 'Verify-email request: email: The address that was registered. otp: The 6-digit code sent to that address.',
  'OTP-LENGTH': 'Access is by email verification with a 6-digit one-time code (OTP). Other limits: OTP length 6 digits.',
  'VERIFY-REUSED': 'Code pending → (correct otp) → Verified with active token: the code is then no longer pending.',
  'OTP-EXPIRY': 'The code is valid for 15 minutes.',
  'TOKEN-LIFETIME': 'The token expires after 7 days; expiresAt states the moment.',
  'TOKEN-EXPIRY': 'Verified with active token → 7 days since token issue → Token expired: Token no longer accepted.',
  'AUTH-401': 'A missing or invalid token yields status 401.',
  'TOKEN-NO-REFRESH': 'There is no refresh operation; a new token is obtained by registering the same email again and verifying the new code.',
  'SHIP-VERIFIED':
    'When POST /api/player/ship is called by a player whose email is not verified, the body is an error envelope whose message says that email verification is required before creating a ship.',
  'ERR-404': '404 Not found',
  'ERR-405': '405 Method not allowed',
  'AP-HEADERS': 'Gameplay responses carry X-ActionPoints-Remaining (integer). When it is 0, X-ActionPoints-NextRefill (integer) is also sent.',
  'RL-LIMIT': 'X-RateLimit-Limit (integer, bucket size)',
  'RL-REMAINING': 'X-RateLimit-Remaining (integer, requests left)',
  'RL-RESET': 'X-RateLimit-Reset (integer, a timestamp-like value, unit unspecified)',
  'RL-429': 'When a limit is exceeded the response is 429 with Retry-After (integer, unit unspecified).',
  'RL-WINDOW': 'Auth (register, verify): 5 requests per IP per minute; Reads: 60 requests per player per minute.',
  'RL-AUTH-IP': 'Registration, verification and admin routes stay limited by IP for every caller.',
  'RL-PER-PLAYER': 'Reads (authenticated GET): 60 requests per player per minute.',
  'RL-EXEMPT':
    'Requests from the official game client origins and other configured game origins are not counted against the gameplay, authenticated-read or public buckets.',
} as const;

export type RuleId = keyof typeof RULES;

/**
 * The sentences of the spec (src/spec/sentences.ts) each rule tests: a server that breaks one of them fails a
 * check of the rule, a fuzz finding under it, or a traffic invariant judged under it (the coverage map reads this).
 */
export const RULE_SENTENCES = {
  'BODY-JSON': ['SVC-BODY-JSON', 'EP-BODIES-JSON'],
  'ENV-SUCCESS': ['ERR-SUCCESS-BODY', 'RES-SUCCESS-TRUE', 'EP-PLAYER', 'AUTH-STEP-BEARER', 'VER-PREFIX'],
  'ENV-ERROR': ['ERR-BODY', 'RES-ERROR-MESSAGE'],
  'HEALTH-NOAUTH': ['EP-HEALTH-NO-AUTH', 'EP-HEALTH', 'ERR-STATUS-200'],
  'HEALTH-BODY': ['RES-HEALTH-STATUS', 'RES-HEALTH-VERSION', 'VER-HEALTH', 'EP-HEALTH'],
  'REG-OK': [
    'RES-REGISTERED-SUCCESS',
    'RES-REGISTERED-MESSAGE',
    'RES-SUCCESS-FIELDS',
    'RES-REGISTER-CHALLENGE-OPTIONAL',
    'EP-REGISTER',
    'STATE-REGISTER',
    'AUTH-STEP-REGISTER',
    'SVC-NO-PASSWORDS',
    'VER-PREFIX',
    'ERR-STATUS-200',
  ],
  'REG-MISSING': ['RES-REGISTER-EMAIL', 'ERR-STATUS-400'],
  'REG-INVALID': ['RES-REGISTER-EMAIL', 'ERR-STATUS-400', 'STATE-REGISTER'],
  'REG-DISPOSABLE': ['ERR-DISPOSABLE', 'RES-REGISTER-DISPOSABLE', 'STATE-REGISTER'],
  'VERIFY-OK': [
    'RES-VERIFIED-SUCCESS',
    'RES-VERIFIED-TOKEN',
    'RES-VERIFIED-EXPIRES',
    'RES-SUCCESS-FIELDS',
    'EP-VERIFY',
    'STATE-VERIFY',
    'STATE-TOKEN-ISSUED',
    'AUTH-STEP-VERIFY',
    'SVC-OTP',
    'VER-PREFIX',
    'ERR-STATUS-200',
  ],
  'VERIFY-MISSING': ['RES-VERIFY-EMAIL', 'RES-VERIFY-OTP', 'ERR-STATUS-400'],
  'VERIFY-WRONG': ['STATE-VERIFY', 'RES-VERIFY-OTP'],
  'VERIFY-BOUND': ['RES-VERIFY-EMAIL', 'RES-VERIFY-OTP', 'STATE-VERIFY'],
  'OTP-LENGTH': ['SVC-OTP', 'LIM-OTP-LENGTH', 'STATE-CODE-SENT', 'AUTH-STEP-CODE', 'RES-VERIFY-OTP'],
  'VERIFY-REUSED': ['STATE-VERIFY'],
  'OTP-EXPIRY': ['AUTH-CODE-LIFETIME', 'LIM-OTP-LIFETIME', 'STATE-VERIFY', 'STATE-CODE-EXPIRED'],
  'TOKEN-LIFETIME': ['AUTH-TOKEN-LIFETIME', 'LIM-TOKEN-LIFETIME', 'RES-VERIFIED-EXPIRES', 'STATE-TOKEN-ISSUED'],
  'TOKEN-EXPIRY': ['STATE-TOKEN-EXPIRED', 'AUTH-TOKEN-LIFETIME', 'LIM-TOKEN-LIFETIME', 'STATE-TOKEN-ISSUED', 'AUTH-TOKEN-401'],
  'AUTH-401': ['AUTH-TOKEN-401', 'ERR-STATUS-401', 'EP-PLAYER', 'EP-SHIP', 'AUTH-STEP-BEARER'],
  'TOKEN-NO-REFRESH': ['AUTH-NO-REFRESH', 'STATE-NO-REFRESH'],
  'SHIP-VERIFIED': ['ERR-SHIP-UNVERIFIED', 'SVC-SHIP-VERIFIED', 'STATE-SHIP-RULE', 'EP-SHIP'],
  'ERR-404': ['ERR-STATUS-404'],
  'ERR-405': ['ERR-STATUS-405'],
  'AP-HEADERS': ['LIM-AP-REMAINING', 'LIM-AP-REFILL', 'EP-SHIP'],
  'RL-LIMIT': ['LIM-HEADER-LIMIT', 'LIM-HEADERS', 'LIM-AUTH', 'LIM-GAMEPLAY', 'LIM-READS', 'LIM-PUBLIC', 'EP-CATEGORIES'],
  'RL-REMAINING': ['LIM-HEADER-REMAINING', 'LIM-HEADERS'],
  'RL-RESET': ['LIM-HEADER-RESET', 'LIM-HEADERS'],
  'RL-429': ['LIM-429', 'ERR-STATUS-429', 'LIM-GAMEPLAY', 'LIM-READS', 'LIM-PUBLIC'],
  'RL-WINDOW': ['LIM-429', 'LIM-AUTH', 'LIM-READS', 'LIM-GAMEPLAY', 'EP-CATEGORIES'],
  'RL-AUTH-IP': ['LIM-AUTH-EVERY-CALLER', 'LIM-AUTH'],
  'RL-PER-PLAYER': ['LIM-READS'],
  'RL-EXEMPT': ['LIM-GAME-ORIGINS', 'SVC-GAME-ORIGINS', 'LIM-GAMEPLAY', 'LIM-READS', 'LIM-PUBLIC'],
} as const satisfies Record<RuleId, readonly SentenceId[]>;

/** A check's title: the rule id, the quoted sentence, and what this check does with it. */
export function rule(id: RuleId, what: string): string {
  return `${id} «${RULES[id]}» ${what}`;
}
