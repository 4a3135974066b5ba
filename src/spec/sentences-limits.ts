import { sentencesOf } from './sentences-shape.js';

// The spec's sentences of Limits and Versioning, verbatim (see sentences-shape.ts for the kinds).

export const LIMIT_SENTENCES = sentencesOf('Limits', [
  { id: 'LIM-AUTH', kind: 'normative', words: 'Auth (register, verify) | 5 requests | per IP per minute | Every caller' },
  { id: 'LIM-GAMEPLAY', kind: 'normative', words: 'Gameplay (POST) | 60 requests | per player per minute | External callers' },
  { id: 'LIM-READS', kind: 'normative', words: 'Reads (authenticated GET) | 60 requests | per player per minute | External callers' },
  { id: 'LIM-PUBLIC', kind: 'normative', words: 'Public reads | 60 requests | per IP per minute | External callers' },
  { id: 'LIM-ADMIN', kind: 'normative', words: 'Admin | 10 requests | per IP per minute | Every caller' },
  { id: 'LIM-EXTERNAL', kind: 'descriptive', words: 'External callers are scripts, command-line clients and third-party tools.' },
  {
    id: 'LIM-GAME-ORIGINS',
    kind: 'normative',
    words:
      'Requests from the official game client origins and other configured game origins are not counted against the gameplay, authenticated-read or public buckets.',
  },
  { id: 'LIM-AUTH-EVERY-CALLER', kind: 'normative', words: 'Registration, verification and admin routes stay limited by IP for every caller.' },
  { id: 'LIM-HEADERS', kind: 'normative', words: 'Responses to external callers carry these headers' },
  { id: 'LIM-HEADER-LIMIT', kind: 'normative', words: 'X-RateLimit-Limit (integer, bucket size)' },
  { id: 'LIM-HEADER-REMAINING', kind: 'normative', words: 'X-RateLimit-Remaining (integer, requests left)' },
  { id: 'LIM-HEADER-RESET', kind: 'normative', words: 'X-RateLimit-Reset (integer, a timestamp-like value, unit unspecified)' },
  { id: 'LIM-429', kind: 'normative', words: 'When a limit is exceeded the response is 429 with Retry-After (integer, unit unspecified).' },
  { id: 'LIM-AP-REMAINING', kind: 'normative', words: 'Gameplay responses carry X-ActionPoints-Remaining (integer).' },
  { id: 'LIM-AP-REFILL', kind: 'normative', words: 'When it is 0, X-ActionPoints-NextRefill (integer) is also sent.' },
  { id: 'LIM-OTP-LIFETIME', kind: 'normative', words: 'OTP lifetime 15 minutes' },
  { id: 'LIM-TOKEN-LIFETIME', kind: 'normative', words: 'token lifetime 7 days' },
  { id: 'LIM-OTP-LENGTH', kind: 'normative', words: 'OTP length 6 digits' },
  {
    id: 'LIM-AP-OPEN',
    kind: 'spec-silent',
    words: 'Starting and maximum action points, cost of each action and the unit of X-ActionPoints-NextRefill: not shown.',
  },
]);

export const VERSION_SENTENCES = sentencesOf('Versioning', [
  {
    id: 'VER-HEALTH',
    kind: 'normative',
    words: 'The health endpoint reports the service version in the version field, as a string of three dot-separated numbers.',
  },
  { id: 'VER-PREFIX', kind: 'normative', words: 'Paths for the API carry the prefix /api with no version segment.' },
  { id: 'VER-OPEN', kind: 'spec-silent', words: 'Versioning scheme, compatibility promises and deprecation policy: not shown.' },
]);
