import type { LiveFinding } from '../../conformance/rules/session/live-finding.js';
import { CONTROL_ROUTES } from '../../src/spec/control-routes.js';

/**
 * A short client session against a base URL with a control API, as a game client and a careless script would
 * send it: sign-ins (two tokens for one player), reads and a ship, every bucket spent to its 429 and, after the
 * clock moves past the window, used again; a game origin's reads and sign-ins. With `departures`, it also sends
 * what a client must not: a misnamed field, a missing one, a body without Content-Type, a protected read without
 * a token, and a read before the Retry-After of a 429 has passed.
 */
export interface SessionOptions {
  baseUrl: string;
  gameOrigin: string;
  /** The header the target reads client addresses from. */
  clientIpHeader?: string;
  departures?: boolean;
}

interface Sent {
  status: number;
  body: unknown;
  headers: Headers;
}

export async function runLiveSession(options: SessionOptions): Promise<void> {
  const addressHeader = (options.clientIpHeader ?? 'x-forwarded-for').toLowerCase();
  let emails = 0;
  const email = (label: string) => `${label}-${++emails}@example.com`;

  async function send(
    ip: string,
    method: string,
    path: string,
    extra: { token?: string; json?: unknown; origin?: string; headers?: Record<string, string>; raw?: string } = {},
  ): Promise<Sent> {
    const headers: Record<string, string> = { [addressHeader]: ip, ...extra.headers };
    if (extra.token !== undefined) headers['authorization'] = `Bearer ${extra.token}`;
    if (extra.origin !== undefined) headers['origin'] = extra.origin;
    if (extra.json !== undefined) headers['content-type'] = 'application/json';
    const body = extra.raw ?? (extra.json === undefined ? undefined : JSON.stringify(extra.json));
    const answer = await fetch(`${options.baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
    const text = await answer.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: answer.status, body: parsed, headers: answer.headers };
  }

  const control = (method: string, path: string, json?: unknown) => send('127.0.0.1', method, path, json === undefined ? {} : { json });

  async function pendingCode(address: string): Promise<string | undefined> {
    const outbox = await control('GET', `${CONTROL_ROUTES.outbox.pattern}?email=${encodeURIComponent(address)}`);
    return (outbox.body as { messages?: { code: string; state: string }[] } | undefined)?.messages?.find((message) => message.state === 'pending')?.code;
  }

  async function signIn(ip: string, address: string, origin?: string): Promise<string | undefined> {
    await send(ip, 'POST', '/api/auth/register', { json: { email: address }, ...(origin === undefined ? {} : { origin }) });
    const code = await pendingCode(address);
    if (code === undefined) return undefined;
    const verified = await send(ip, 'POST', '/api/auth/verify-email', { json: { email: address, otp: code }, ...(origin === undefined ? {} : { origin }) });
    const token = (verified.body as { authToken?: unknown } | undefined)?.authToken;
    return typeof token === 'string' ? token : undefined;
  }

  /** Sends until a 429 (at most `most` times): the bucket spent, as a script that ignores the headers would. */
  async function spend(most: number, request: () => Promise<Sent>): Promise<Sent | undefined> {
    for (let sent = 0; sent < most; sent++) {
      const answer = await request();
      if (answer.status === 429) return answer;
    }
    return undefined;
  }

  await send('198.51.100.1', 'GET', '/health');
  const alice = email('alice');
  const first = await signIn('198.51.100.2', alice);
  const second = await signIn('198.51.100.3', alice);
  if (first === undefined || second === undefined) throw new Error('the session could not sign in: is the target the mock with its control API?');
  await send('198.51.100.2', 'GET', '/health');
  for (let read = 0; read < 3; read++) {
    await send('198.51.100.2', 'GET', '/api/player', { token: first });
    await send('198.51.100.3', 'GET', '/api/player', { token: second });
  }
  await send('198.51.100.2', 'GET', '/health');
  await send('198.51.100.2', 'POST', '/api/player/ship', { token: first, json: { name: 'Nomad' } });
  await send('198.51.100.2', 'POST', '/api/auth/verify-email', { json: { email: alice, otp: '000000' } });
  await send('198.51.100.4', 'POST', '/api/auth/register', { json: { email: 'someone@mailinator.com' } });
  await send('198.51.100.4', 'POST', '/api/auth/register', { json: { email: 'someone@Mailinator.COM' } });
  await send('198.51.100.4', 'POST', '/api/auth/register', { json: { email: 'not an address' } });
  await send('198.51.100.4', 'GET', '/api/nowhere');
  await send('198.51.100.4', 'DELETE', '/api/player', { token: first });
  // A method /health does not take: refused 405 (the paths that need no token are where live traffic judges it).
  await send('198.51.100.4', 'POST', '/health');
  // A double submit: the code that just verified, sent again.
  const henry = email('henry');
  await send('198.51.100.10', 'POST', '/api/auth/register', { json: { email: henry } });
  const henryCode = await pendingCode(henry);
  await send('198.51.100.10', 'POST', '/api/auth/verify-email', { json: { email: henry, otp: henryCode } });
  await send('198.51.100.10', 'POST', '/api/auth/verify-email', { json: { email: henry, otp: henryCode } });
  // Wrong codes typed, each from an address of its own.
  const ivy = email('ivy');
  await send('198.51.100.11', 'POST', '/api/auth/register', { json: { email: ivy } });
  for (let attempt = 0; attempt < 7; attempt++)
    await send(`198.51.101.${attempt + 1}`, 'POST', '/api/auth/verify-email', { json: { email: ivy, otp: '999999' } });

  // Each bucket spent to its 429, then used again once the clock has moved past the window.
  await spend(70, () => send('198.51.100.2', 'GET', '/api/player', { token: first }));
  await spend(70, () => send('198.51.100.5', 'GET', '/health'));
  await spend(8, () => send('198.51.100.6', 'POST', '/api/auth/register', { json: { email: email('bob') } }));
  await control('POST', CONTROL_ROUTES.setClock.pattern, { advanceMs: 61_000 });
  await send('198.51.100.2', 'GET', '/api/player', { token: second });
  await send('198.51.100.5', 'GET', '/health');
  const carol = await signIn('198.51.100.6', email('carol'));

  // A game origin: its reads are not counted, its sign-ins are; an origin that only looks like it is counted.
  const dave = await signIn('198.51.100.7', email('dave'), options.gameOrigin);
  await spend(70, () => send('198.51.100.7', 'GET', '/api/player', { token: dave ?? first, origin: options.gameOrigin }));
  const lookAlike = `${new URL(options.gameOrigin).protocol === 'https:' ? 'http:' : 'https:'}//${new URL(options.gameOrigin).host}`;
  for (let read = 0; read < 3; read++) await send('198.51.100.12', 'GET', '/api/player', { token: second, origin: lookAlike });
  await spend(8, () => send('198.51.100.8', 'POST', '/api/auth/register', { json: { email: email('erin') }, origin: options.gameOrigin }));

  // Gameplay: the last action point spent, an encounter answered 409 and resolved, the bucket spent.
  if (carol !== undefined) {
    const player = await send('198.51.100.6', 'GET', '/api/player', { token: carol });
    const id = (player.body as { player?: { id?: string } } | undefined)?.player?.id;
    if (id !== undefined) await send('127.0.0.1', 'PUT', CONTROL_ROUTES.setActionPoints.pattern.replace(':id', id), { json: { points: 0 } });
    // Two players' reads in turn: each bucket counts its own.
    for (let read = 0; read < 2; read++) {
      await send('198.51.100.6', 'GET', '/api/player', { token: carol });
      await send('198.51.100.3', 'GET', '/api/player', { token: second });
    }
    await send('198.51.100.6', 'POST', '/api/player/ship', { token: carol, json: { name: 'Wren' } });
    if (id !== undefined) {
      await control('POST', CONTROL_ROUTES.startEncounter.pattern.replace(':id', id), {});
      await send('198.51.100.6', 'POST', '/api/player/ship', { token: carol, json: { name: 'Wren II' } });
      if (options.departures === true) await send('198.51.100.6', 'POST', '/api/player/ship', { token: carol, json: { name: 'Wren III' } });
      await control('DELETE', CONTROL_ROUTES.endEncounter.pattern.replace(':id', id));
    }
    await spend(70, () => send('198.51.100.6', 'POST', '/api/player/ship', { token: carol, json: { name: 'Wren IV' } }));
  }

  // A code used 16 minutes after it was sent, then a token used after its 7 days.
  const jack = email('jack');
  await send('198.51.100.13', 'POST', '/api/auth/register', { json: { email: jack } });
  const jackCode = await pendingCode(jack);
  await control('POST', CONTROL_ROUTES.setClock.pattern, { advanceMs: 16 * 60_000 });
  await send('198.51.100.13', 'POST', '/api/auth/verify-email', { json: { email: jack, otp: jackCode } });

  if (options.departures === true) {
    await send('198.51.100.9', 'POST', '/api/auth/register', { json: { email: email('frank'), turnstileToken: 'XXXX.DUMMY' } });
    await send('198.51.100.9', 'POST', '/api/auth/verify-email', { json: { email: alice } });
    await send('198.51.100.14', 'POST', '/api/auth/register', { json: {} });
    await send('198.51.100.14', 'POST', '/api/auth/register', { raw: 'null', headers: { 'content-type': 'application/json' } });
    await send('198.51.100.14', 'POST', '/api/auth/register', { raw: '{"email":', headers: { 'content-type': 'application/json' } });
    await send('198.51.100.15', 'POST', '/api/auth/register', { json: { email: 42 } });
    await send('198.51.100.15', 'POST', '/api/auth/verify-email', { json: { email: alice, otp: 123456 } });
    await send('198.51.100.15', 'POST', '/api/auth/verify-email', { json: { email: 42, otp: '123456' } });
    await send('198.51.100.9', 'POST', '/api/auth/register', { raw: JSON.stringify({ email: email('grace') }), headers: { 'content-type': 'text/plain' } });
    await send('198.51.100.9', 'GET', '/api/player');
    await send('198.51.100.9', 'POST', '/api/player/ship', { json: { name: 'Stowaway' } });
    await send('198.51.100.9', 'GET', '/api/player', { token: 'garbage' });
    await send('198.51.100.9', 'POST', '/api/auth/refresh', { token: second, json: { token: second } });
    const limited = await spend(70, () => send('198.51.100.2', 'GET', '/api/player', { token: second }));
    if (limited !== undefined) await send('198.51.100.2', 'GET', '/api/player', { token: second });
  }
  await control('POST', CONTROL_ROUTES.setClock.pattern, { advanceMs: 7 * 24 * 60 * 60_000 });
  await send('198.51.100.3', 'GET', '/api/player', { token: second });
}

/** Broken servers whose departure this session does not show, or live traffic cannot: the reason for each. */
export const NOT_SEEN_LIVE: Readonly<Record<string, string>> = {
  'wrong-code-accepted': 'which code is right is known only to the server (and its outbox)',
  'code-not-bound-to-email': 'to whom a code was sent is known only to the server (and its outbox)',
  'ship-gate-vague-message': 'whether a player is verified shows only in a field the spec does not show',
  'unknown-path-400': 'the routes beyond the table are not shown, so no path is known to be unknown',
  'challenge-token-refused': 'whether the bot-check is configured, which decides whether challengeToken may be refused, is known only to the server',
  'player-read-requires-verified': 'which players have not verified is known only to the server (its control API made them)',
  'ship-gate-skipped-for-game-origin': 'which players have not verified is known only to the server (its control API made them)',
  'auth-limit-skipped-with-token':
    "a client's session sends no bearer token with its registrations and verifications, so the requests such a limiter skips never pass",
  'missing-email-422':
    'a 422 to a request missing its email is a departure only where nothing else may refuse it first (a spent limit, the bot-check), which only the sender that shaped it knows',
  'game-origin-auth-not-counted':
    "a game origin's answers need no X-RateLimit-* (the spec asks them of external callers), so an auth bucket the proxy did not see open cannot be learned",
  'register-answer-carries-code': 'which code was delivered is known only to the server (and its outbox); an answer may carry fields of its own',
  'fixed-code-verifies': 'which code is right is known only to the server (and its outbox)',
  'code-delivered-for-refused-address': 'what was delivered shows only in the outbox, which live traffic does not read',
  'domain-case-another-address': 'this session writes each address one way, and to which address a code was sent is known only to the server (and its outbox)',
  'token-with-suffix-accepted': 'this session sends no real token with a character added',
  'json-content-type-compared-exactly': 'this session labels its bodies exactly application/json',
  'json-fields-read-without-unescaping': 'this session writes its JSON without escapes',
  'read-limit-check-then-increment': 'this session sends one request at a time: a count lost between requests sent together never shows',
  'auth-limit-check-then-increment': 'this session sends one request at a time: a count lost between requests sent together never shows',
  'read-window-restarts-on-refusal':
    'this session waits a whole window after its last refusal before it reads again, so a window its refusals restarted has ended all the same',
  'read-window-end-moves':
    'this session waits a whole window after its last read of a bucket before it reads again, so a window its reads moved has ended all the same',
};

/** The proxy's findings, one line each, for a failure message. */
export const describeFindings = (findings: readonly LiveFinding[]) =>
  findings
    .map((finding) => `${finding.side} ${finding.rule}: ${finding.message} (${finding.exchange.method} ${finding.exchange.url} → ${finding.exchange.status})`)
    .join('\n');
