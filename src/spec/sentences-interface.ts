import { sentencesOf } from './sentences-shape.js';

// The spec's sentences of Endpoints, Authentication, Events and Errors, verbatim (see sentences-shape.ts for the kinds).

export const ENDPOINT_SENTENCES = sentencesOf('Endpoints', [
  { id: 'EP-BODIES-JSON', kind: 'normative', words: 'All bodies are JSON' },
  { id: 'EP-REQUEST-CONTENT-TYPE', kind: 'normative', words: 'Content-Type: application/json for requests with a body' },
  { id: 'EP-HEALTH', kind: 'normative', words: 'GET | {base_url}/health | none | none | Health response (status, version).' },
  {
    id: 'EP-REGISTER',
    kind: 'normative',
    words: 'POST | {base_url}/api/auth/register | none | Register request: email, challengeToken | Register response: success, message.',
  },
  {
    id: 'EP-VERIFY',
    kind: 'normative',
    words: 'POST | {base_url}/api/auth/verify-email | none | Verify-email request: email, otp | Verify-email response: success, authToken, expiresAt.',
  },
  { id: 'EP-PLAYER', kind: 'normative', words: 'GET | {base_url}/api/player | Bearer token | none | Success envelope with player data.' },
  {
    id: 'EP-SHIP',
    kind: 'normative',
    words:
      'POST | {base_url}/api/player/ship | Bearer token, verified email | Ship creation payload | Success envelope; on unverified email an error envelope (see Errors).',
  },
  { id: 'EP-HEALTH-NO-AUTH', kind: 'normative', words: 'The health endpoint requires no authentication.' },
  {
    id: 'EP-CATEGORIES',
    kind: 'normative',
    words:
      'Register and verify-email are the "Auth" rate-limit category; GET /api/player is an authenticated read; POST operations for gameplay are the "Gameplay" category.',
  },
  { id: 'EP-PLAYER-FIELDS', kind: 'spec-silent', words: 'Response fields of GET /api/player: not shown.' },
  { id: 'EP-SHIP-PAYLOAD', kind: 'spec-silent', words: 'Request and response payload of POST /api/player/ship: not shown.' },
  { id: 'EP-OTHER-ENDPOINTS', kind: 'spec-silent', words: 'The complete list of endpoints beyond those in the table: not shown.' },
]);

export const AUTHENTICATION_SENTENCES = sentencesOf('Authentication', [
  { id: 'AUTH-STEP-REGISTER', kind: 'normative', words: 'Call POST /api/auth/register with email (and challengeToken where the bot-check is configured).' },
  { id: 'AUTH-STEP-CODE', kind: 'normative', words: 'Read the 6-digit code delivered to that email.' },
  { id: 'AUTH-STEP-VERIFY', kind: 'normative', words: 'Call POST /api/auth/verify-email with email and otp; the response carries authToken.' },
  { id: 'AUTH-STEP-BEARER', kind: 'normative', words: 'Send authToken on protected requests in the header: Authorization: Bearer <AUTH_TOKEN>.' },
  { id: 'AUTH-CODE-LIFETIME', kind: 'normative', words: 'The code is valid for 15 minutes.' },
  { id: 'AUTH-TOKEN-LIFETIME', kind: 'normative', words: 'The token expires after 7 days; expiresAt states the moment.' },
  {
    id: 'AUTH-NO-REFRESH',
    kind: 'normative',
    words: 'There is no refresh operation; a new token is obtained by registering the same email again and verifying the new code.',
  },
  { id: 'AUTH-NO-PASSWORDS', kind: 'normative', words: 'Passwords are not stored or used.' },
  { id: 'AUTH-TOKEN-401', kind: 'normative', words: 'A missing or invalid token yields status 401.' },
  {
    id: 'AUTH-OPEN',
    kind: 'spec-silent',
    words: 'Whether a new registration invalidates earlier codes, and any limit on wrong code attempts: not shown.',
  },
]);

export const EVENT_SENTENCES = sentencesOf('Events', [{ id: 'EVT-NONE', kind: 'spec-silent', words: 'Events, webhooks or push notifications: not shown.' }]);

export const ERROR_SENTENCES = sentencesOf('Errors', [
  { id: 'ERR-BODY', kind: 'normative', words: 'Error body: {error: <message string>}.' },
  { id: 'ERR-SUCCESS-BODY', kind: 'normative', words: 'Successful bodies contain success: true.' },
  { id: 'ERR-STATUS-200', kind: 'normative', words: '200 | OK' },
  { id: 'ERR-STATUS-400', kind: 'normative', words: '400 | Bad request: missing or invalid parameters' },
  { id: 'ERR-STATUS-401', kind: 'normative', words: '401 | Unauthorized: missing or invalid token' },
  {
    id: 'ERR-STATUS-403',
    kind: 'normative',
    words: '403 | Forbidden: for example insufficient action points, or the player not being in the required sector',
  },
  { id: 'ERR-STATUS-404', kind: 'normative', words: '404 | Not found' },
  { id: 'ERR-STATUS-405', kind: 'normative', words: '405 | Method not allowed' },
  { id: 'ERR-STATUS-409', kind: 'normative', words: '409 | Conflict: a fighter encounter must be resolved first' },
  { id: 'ERR-STATUS-429', kind: 'normative', words: '429 | Rate limit exceeded; response carries a Retry-After header' },
  { id: 'ERR-STATUS-500', kind: 'normative', words: '500 | Internal server error' },
  {
    id: 'ERR-SHIP-UNVERIFIED',
    kind: 'normative',
    words:
      'When POST /api/player/ship is called by a player whose email is not verified, the body is an error envelope whose message says that email verification is required before creating a ship.',
  },
  { id: 'ERR-SHIP-UNVERIFIED-STATUS', kind: 'spec-silent', words: 'Status code of that response: not shown.' },
  { id: 'ERR-DISPOSABLE', kind: 'normative', words: 'Registration with a disposable-domain email is rejected.' },
  {
    id: 'ERR-DISPOSABLE-STATUS',
    kind: 'spec-silent',
    words: 'Status and message for that case, and for wrong or expired codes: not shown.',
  },
]);
