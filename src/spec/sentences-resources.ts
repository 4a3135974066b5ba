import { sentencesOf } from './sentences-shape.js';

// The spec's sentences from its title to States and transitions, verbatim (see sentences-shape.ts for the kinds).

export const INTRO_SENTENCES = sentencesOf('Game Service HTTP API Specification', [
  {
    id: 'DOC-SCOPE',
    kind: 'descriptive',
    words:
      'This single document covers all parts of the interface: purpose, resources, states, endpoints, authentication, events, errors, limits and versioning.',
  },
  { id: 'DOC-BASE-URL', kind: 'descriptive', words: 'The service is called "the service"; its base address is {base_url}.' },
]);

export const SERVICE_SENTENCES = sentencesOf('What the service does', [
  { id: 'SVC-PURPOSE', kind: 'descriptive', words: 'The service is a JSON-over-HTTP API for an online multiplayer game.' },
  { id: 'SVC-ACTION-POINTS', kind: 'descriptive', words: 'Players act through ships and spend action points on gameplay actions.' },
  { id: 'SVC-OTP', kind: 'normative', words: 'Access is by email verification with a 6-digit one-time code (OTP).' },
  { id: 'SVC-NO-PASSWORDS', kind: 'normative', words: 'There are no passwords.' },
  { id: 'SVC-SHIP-VERIFIED', kind: 'normative', words: 'A player must have a verified email before creating a ship.' },
  { id: 'SVC-BODY-JSON', kind: 'normative', words: 'Every response body is JSON.' },
  { id: 'SVC-WEB-CLIENT', kind: 'descriptive', words: 'A separate browser game client exists.' },
  {
    id: 'SVC-GAME-ORIGINS',
    kind: 'normative',
    words: 'Requests from configured game-client origins are treated differently for rate limiting (see Limits).',
  },
  {
    id: 'SVC-GAME-RULES',
    kind: 'spec-silent',
    words: 'Game rules (sectors, trading, combat, fighter encounters, costs) are not shown beyond the names that appear in the status-code rules under Errors.',
  },
]);

export const RESOURCE_SENTENCES = sentencesOf('Resources and their fields', [
  { id: 'RES-SUCCESS-TRUE', kind: 'normative', words: 'success | boolean | Always true on success.' },
  { id: 'RES-SUCCESS-FIELDS', kind: 'normative', words: '(other fields) | varies | Operation-specific data is placed at the same top level as success.' },
  { id: 'RES-ERROR-MESSAGE', kind: 'normative', words: 'error | string | Human-readable message.' },
  { id: 'RES-HEALTH-STATUS', kind: 'normative', words: 'status | string | The value "ok" when healthy.' },
  { id: 'RES-HEALTH-VERSION', kind: 'normative', words: 'version | string | Service version, dotted numeric form <major>.<minor>.<patch>.' },
  { id: 'RES-REGISTER-EMAIL', kind: 'normative', words: 'email | string | yes | Email address to verify.' },
  { id: 'RES-REGISTER-DISPOSABLE', kind: 'normative', words: 'Addresses on throwaway (disposable) domains are rejected.' },
  { id: 'RES-REGISTER-CHALLENGE', kind: 'normative', words: 'challengeToken | string | conditional | Token from the bot-check widget of the web client.' },
  { id: 'RES-REGISTER-CHALLENGE-OPTIONAL', kind: 'normative', words: 'Optional when the bot-check is not configured on the server.' },
  { id: 'RES-REGISTERED-SUCCESS', kind: 'normative', words: 'success | boolean | true' },
  {
    id: 'RES-REGISTERED-MESSAGE',
    kind: 'normative',
    words: 'message | string | Human-readable text saying that a verification code was sent to the email.',
  },
  { id: 'RES-VERIFY-EMAIL', kind: 'normative', words: 'email | string | yes | The address that was registered.' },
  { id: 'RES-VERIFY-OTP', kind: 'normative', words: 'otp | string | yes | The 6-digit code sent to that address.' },
  { id: 'RES-VERIFIED-SUCCESS', kind: 'normative', words: 'success | boolean | true' },
  { id: 'RES-VERIFIED-TOKEN', kind: 'normative', words: 'authToken | string | Bearer token, UUID format.' },
  { id: 'RES-VERIFIED-EXPIRES', kind: 'normative', words: 'expiresAt | string | ISO 8601 UTC timestamp at which the token expires.' },
  { id: 'RES-PLAYER-FIELDS', kind: 'spec-silent', words: 'Fields of the player resource: not shown.' },
  { id: 'RES-SHIP-FIELDS', kind: 'spec-silent', words: 'Fields of the ship resource and of its creation payload: not shown.' },
]);

export const STATE_SENTENCES = sentencesOf('States and transitions', [
  {
    id: 'STATE-SCOPE',
    kind: 'descriptive',
    words: 'The only state shown is the verification state of an email address and the validity of its token.',
  },
  {
    id: 'STATE-REGISTER',
    kind: 'normative',
    words:
      'Unverified (no valid code) | POST /api/auth/register | Valid email, not disposable, challenge token valid when the check is configured | Code pending',
  },
  { id: 'STATE-CODE-SENT', kind: 'normative', words: 'A 6-digit code is sent to the email' },
  { id: 'STATE-CODE-CONSOLE', kind: 'normative', words: 'in development it is written to the server console instead.' },
  {
    id: 'STATE-VERIFY',
    kind: 'normative',
    words: 'Code pending | POST /api/auth/verify-email | Correct otp, within 15 minutes of issue | Verified with active token',
  },
  { id: 'STATE-TOKEN-ISSUED', kind: 'normative', words: 'A bearer token is issued, valid 7 days.' },
  {
    id: 'STATE-TOKEN-EXPIRED',
    kind: 'normative',
    words: 'Verified with active token | Time passes | 7 days since token issue | Token expired | Token no longer accepted.',
  },
  { id: 'STATE-NO-REFRESH', kind: 'normative', words: 'No refresh exists.' },
  {
    id: 'STATE-REREGISTER',
    kind: 'normative',
    words:
      'Token expired | POST /api/auth/register with the same email | As for registration | Code pending | A new code is sent; verifying it issues a new token.',
  },
  {
    id: 'STATE-CODE-EXPIRED',
    kind: 'normative',
    words: 'Code pending | Time passes | 15 minutes since issue | Code expired | Code is no longer usable; register again.',
  },
  { id: 'STATE-SHIP-RULE', kind: 'normative', words: 'Rule: ship creation is allowed only for a player whose email is verified.' },
  { id: 'STATE-OTHERS', kind: 'spec-silent', words: 'Transitions of ships, players and fighter encounters: not shown.' },
]);
