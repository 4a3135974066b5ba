/**
 * Every choice the spec leaves open, with the sentence that leaves it open: the mock's default side, and the
 * legal variants it can play instead. The conformance suite and the fuzzer must pass against each variant
 * (a test runs them), and a client developer can run the mock as any of them.
 */

export interface SpecChoice {
  /** The choice, e.g. `reset-unit`. */
  readonly choice: string;
  /** The spec's words that leave it open. */
  readonly sentence: string;
  /** What the mock does by default. */
  readonly mockDefault: string;
  /** The other legal sides, first named first (`--variant all` plays that one). */
  readonly variants: readonly { readonly name: string; readonly does: string }[];
}

export const SPEC_CHOICES = [
  {
    choice: 'reset-unit',
    sentence: 'X-RateLimit-Reset (integer, a timestamp-like value, unit unspecified)',
    mockDefault: 'Unix epoch seconds at which the window ends',
    variants: [
      { name: 'reset-epoch-milliseconds', does: 'X-RateLimit-Reset in Unix epoch milliseconds' },
      { name: 'reset-seconds-remaining', does: 'X-RateLimit-Reset as the seconds left in the window' },
    ],
  },
  {
    choice: 'retry-after-unit',
    sentence: 'When a limit is exceeded the response is 429 with Retry-After (integer, unit unspecified).',
    mockDefault: 'whole seconds until the window ends, rounded up',
    variants: [
      { name: 'retry-after-milliseconds', does: 'Retry-After in milliseconds' },
      { name: 'retry-after-minutes', does: 'Retry-After in whole minutes, rounded up' },
    ],
  },
  {
    choice: 'window-start',
    sentence: 'Auth (register, verify): 5 requests per IP per minute (where a minute starts is not shown)',
    mockDefault: "a window of 60 s from each key's first counted request",
    variants: [{ name: 'windows-on-clock-minutes', does: 'windows aligned to clock minutes' }],
  },
  {
    choice: 'wrong-code-status',
    sentence: 'Status and message for that case, and for wrong or expired codes: not shown.',
    mockDefault: '400 for a wrong, expired or used code',
    variants: [
      { name: 'wrong-code-401', does: '401 for a wrong, expired or used code' },
      { name: 'wrong-code-422', does: '422 for a wrong, expired or used code' },
    ],
  },
  {
    choice: 'disposable-status',
    sentence: 'Registration with a disposable-domain email is rejected. Status and message for that case […]: not shown.',
    mockDefault: '400 for a disposable address',
    variants: [
      { name: 'disposable-403', does: '403 for a disposable address' },
      { name: 'disposable-422', does: '422 for a disposable address' },
    ],
  },
  {
    choice: 'unverified-ship-status',
    sentence: 'When POST /api/player/ship is called by a player whose email is not verified, […] Status code of that response: not shown.',
    mockDefault: '403 for an unverified player',
    variants: [
      { name: 'unverified-ship-400', does: '400 for an unverified player' },
      { name: 'unverified-ship-422', does: '422 for an unverified player' },
    ],
  },
  {
    choice: 'next-refill-unit',
    sentence: 'Starting and maximum action points, cost of each action and the unit of X-ActionPoints-NextRefill: not shown.',
    mockDefault: 'X-ActionPoints-NextRefill in seconds',
    variants: [{ name: 'nextrefill-in-minutes', does: 'X-ActionPoints-NextRefill in minutes, rounded up' }],
  },
  {
    choice: 're-registration',
    sentence: 'Token expired → POST /api/auth/register with the same email → Code pending (re-registration while a token is valid: not shown)',
    mockDefault: 'the earlier token stays valid until it expires',
    variants: [{ name: 'reregistration-revokes-token', does: "a new registration revokes the address's current tokens" }],
  },
  {
    choice: 'routing-order',
    sentence: 'A missing or invalid token yields status 401. The complete list of endpoints beyond those in the table: not shown.',
    mockDefault: 'routing first: an unknown path answers 404 with or without a token',
    variants: [{ name: 'auth-before-routing', does: 'the bearer token is checked before routing: an unknown path without a valid token answers 401' }],
  },
  {
    choice: 'unauthorized-counting',
    sentence: 'Public reads: 60 requests per IP per minute, external callers (whether a request answered 401 counts: not shown)',
    mockDefault: 'a request answered 401 counts in the public bucket of its IP',
    variants: [{ name: 'unauthorized-not-counted', does: 'a request answered 401 counts in no bucket and carries no X-RateLimit-* headers' }],
  },
  {
    choice: 'expires-at-precision',
    sentence: 'expiresAt: ISO 8601 UTC timestamp at which the token expires.',
    mockDefault: 'with milliseconds (2030-01-08T09:00:00.000Z)',
    variants: [{ name: 'expires-at-without-milliseconds', does: 'expiresAt without milliseconds (2030-01-08T09:00:00Z)' }],
  },
  {
    choice: 'player-fields',
    sentence: 'Response fields of GET /api/player: not shown.',
    mockDefault: 'the player nested: {success, player: {id, email, …}}',
    variants: [{ name: 'player-fields-flat', does: 'the player fields beside success: {success, id, email, …}' }],
  },
  {
    choice: 'health-body',
    sentence: 'Health response: status (the value "ok" when healthy), version (no success field is shown)',
    mockDefault: '{success: true, status: "ok", version}',
    variants: [{ name: 'health-without-success', does: '/health answers {status, version} only' }],
  },
  {
    choice: 'health-methods',
    sentence: 'The complete list of endpoints beyond those in the table: not shown.',
    mockDefault: '/health answers GET (and HEAD); other methods 405',
    variants: [{ name: 'health-any-method', does: '/health answers every method with 200' }],
  },
  {
    choice: 'extra-fields',
    sentence: 'Success envelope: (other fields) varies',
    mockDefault: 'no fields beyond those documented',
    variants: [{ name: 'extra-body-fields', does: 'every JSON body carries a requestId too' }],
  },
  {
    choice: 'exempt-headers',
    sentence: 'Responses to external callers carry these headers (game-origin responses: not shown)',
    mockDefault: 'no X-RateLimit-* on the categories that exempt game clients',
    variants: [{ name: 'ratelimit-headers-on-exempt', does: 'X-RateLimit-* of a full bucket on exempt game-origin responses too' }],
  },
  {
    choice: 'wrong-attempt-limit',
    sentence: 'Whether a new registration invalidates earlier codes, and any limit on wrong code attempts: not shown.',
    mockDefault: 'the 5th wrong code voids the pending code; later verify calls answer 429',
    variants: [{ name: 'unlimited-wrong-codes', does: 'no limit on wrong code attempts' }],
  },
  {
    choice: 'ship-payload',
    sentence: 'Request and response payload of POST /api/player/ship: not shown.',
    mockDefault: 'any JSON object, every field kept; the name from name or shipName, else one is given',
    variants: [
      { name: 'ship-payload-galaxy', does: '{galaxyId, shipName}, validated before the verification check' },
      { name: 'ship-payload-name', does: '{name} of 1 to 32 characters, checked after the verification check' },
    ],
  },
  {
    choice: 'client-address',
    sentence: 'Auth: 5 requests per IP per minute (how the IP is read behind a proxy: not shown)',
    mockDefault: 'with --trust-proxy, the first X-Forwarded-For hop',
    variants: [{ name: 'client-ip-cf-connecting-ip', does: 'with --trust-proxy, CF-Connecting-IP, then the first X-Forwarded-For hop' }],
  },
] as const satisfies readonly SpecChoice[];

export type VariantName = (typeof SPEC_CHOICES)[number]['variants'][number]['name'];

/** The legal choices of the public deployment the spec abstracts (spec-silent.md), as one preset. */
export const PUBLIC_DEPLOYMENT_VARIANTS: readonly VariantName[] = [
  'nextrefill-in-minutes',
  'wrong-code-401',
  'reregistration-revokes-token',
  'auth-before-routing',
  'unauthorized-not-counted',
  'health-any-method',
  'ship-payload-galaxy',
  'client-ip-cf-connecting-ip',
];
