import type { LoggedAnswer } from './web-client-player.js';

/** Each answer the page logged, as `status METHOD path · rate limit Remaining/Limit · points Remaining`. */
export function readable(answers: readonly LoggedAnswer[]): string[] {
  return answers.map(({ status, method, path, headers }) => {
    const rateLimit = headers['X-RateLimit-Limit'] === null ? '—' : `${headers['X-RateLimit-Remaining']}/${headers['X-RateLimit-Limit']}`;
    return `${status} ${method} ${path} · rate limit ${rateLimit} · points ${headers['X-ActionPoints-Remaining'] ?? '—'}`;
  });
}

/** What a page on any origin reads: every bucket's headers (reads and gameplay per player, auth per IP). */
export const COUNTED_FIRST_SESSION = [
  '200 POST /api/auth/register · rate limit 4/5 · points —',
  '400 POST /api/auth/verify-email · rate limit 3/5 · points —',
  '200 POST /api/auth/verify-email · rate limit 2/5 · points —',
  '404 GET /api/player/ship · rate limit 59/60 · points —',
  '200 POST /api/player/ship · rate limit 59/60 · points 60',
  '200 GET /api/galaxy/1/sectors · rate limit 58/60 · points —',
  '200 GET /api/galaxy/1/sector?id=1 · rate limit 57/60 · points —',
  '200 POST /api/player/ship/move · rate limit 58/60 · points 59',
  '200 GET /api/player/ship · rate limit 56/60 · points —',
  '200 GET /api/galaxy/1/sector?id=2 · rate limit 55/60 · points —',
];

/** The same page after a reload: the kept session goes on, the player's read bucket with it. */
export const COUNTED_AFTER_RELOAD = [
  '200 GET /api/player/ship · rate limit 54/60 · points —',
  '200 GET /api/galaxy/1/sectors · rate limit 53/60 · points —',
  '200 GET /api/galaxy/1/sector?id=2 · rate limit 52/60 · points —',
];

/** A game origin's page: auth is still limited by IP, its reads and gameplay are not counted and carry no X-RateLimit-*. */
export const EXEMPT_FIRST_SESSION = [
  '200 POST /api/auth/register · rate limit 4/5 · points —',
  '400 POST /api/auth/verify-email · rate limit 3/5 · points —',
  '200 POST /api/auth/verify-email · rate limit 2/5 · points —',
  '404 GET /api/player/ship · rate limit — · points —',
  '200 POST /api/player/ship · rate limit — · points 60',
  '200 GET /api/galaxy/1/sectors · rate limit — · points —',
  '200 GET /api/galaxy/1/sector?id=1 · rate limit — · points —',
  '200 POST /api/player/ship/move · rate limit — · points 59',
  '200 GET /api/player/ship · rate limit — · points —',
  '200 GET /api/galaxy/1/sector?id=2 · rate limit — · points —',
];

/** A game origin's page after a reload: its reads still exempt. */
export const EXEMPT_AFTER_RELOAD = [
  '200 GET /api/player/ship · rate limit — · points —',
  '200 GET /api/galaxy/1/sectors · rate limit — · points —',
  '200 GET /api/galaxy/1/sector?id=2 · rate limit — · points —',
];

/** What the screen shows on the way: the server's refusal of the wrong code, the ship, its sector, credits and points. */
export const FIRST_SESSION_SCREEN = {
  wrongCodeError: '400: Wrong verification code',
  shipTitle: 'Nomad (merchant)',
  sectorBefore: 'Sol',
  sectorAfter: 'Vega Reach',
  credits: '1000',
  actionPointsBefore: '60',
  actionPointsAfter: '59',
};

/** What the screen shows after a reload: the ship where the server kept it, and its credits. */
export const AFTER_RELOAD_SCREEN = { shipTitle: 'Nomad (merchant)', sector: 'Vega Reach', credits: '1000' };
