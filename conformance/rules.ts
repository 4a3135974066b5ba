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

/** A check's title: the rule id, the quoted sentence, and what this check does with it. */
export function rule(id: RuleId, what: string): string {
  return `${id} «${RULES[id]}» ${what}`;
}
