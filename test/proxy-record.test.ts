import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Exchange } from '../conformance/common/exchange.js';
import { recordRoutes, writeRecordedRoutes } from '../conformance/proxy/record-routes.js';
import type { OtpDelivery } from '../src/core/options.js';
import { createService } from '../src/core/service.js';
import type { UserRoute } from '../src/core/user-routes/user-route.js';
import { createNodeServer } from '../src/hosts/node-http.js';
import { startMock, useCli } from './support/cli.js';
import { useTempDir } from './support/temp-dir.js';

const cli = useCli();
const tempDir = useTempDir('game-service-proxy-record');
const EMAIL = 'ada.pilot@studio.example';
const FLEETS = ['5b6c7d8e-1f2a-4b3c-9d4e-5f6a7b8c9d0e', 'c0ffee00-1234-4abc-8def-0123456789ab'];

/** The deployment the client talked to: routes beyond the spec's, some answered by handlers the recording cannot see. */
const DEPLOYMENT_ROUTES: UserRoute[] = [
  {
    method: 'GET',
    path: '/api/galaxy/:galaxyId/sectors',
    category: 'read',
    response: { galaxyId: '{{params.galaxyId}}', sectors: [{ id: 1, name: 'Sol' }], owner: '{{player.id}}', pilot: '{{player.email}}' },
  },
  { method: 'POST', path: '/api/fleets/:fleetId/move', category: 'gameplay', cost: 2, response: { fleetId: '{{params.fleetId}}', moved: true } },
  { method: 'POST', path: '/api/fleets', category: 'gameplay', cost: 0, status: 201, response: { created: true, name: '{{body.name}}' } },
  { method: 'POST', path: '/api/warp', category: 'gameplay', status: 403, response: { error: 'Not in the required sector', sector: 4 } },
  {
    method: 'GET',
    path: '/api/leaderboard',
    category: 'public',
    handler: () => ({ top: [{ name: 'Ace', email: 'ace@studio.example' }], hint: 'write {{params.id}} in a template' }),
  },
];

interface Request {
  method: string;
  path: string;
  json?: unknown;
  signedIn?: boolean;
}

/** A client's session: sign-in and GET /api/player (spec routes, skipped by the recording), then routes of the game. */
const SESSION: Request[] = [
  { method: 'GET', path: '/health' },
  { method: 'GET', path: '/api/galaxy/42/sectors', signedIn: true },
  { method: 'GET', path: '/api/galaxy/7/sectors', signedIn: true },
  { method: 'POST', path: `/api/fleets/${FLEETS[0]}/move`, signedIn: true },
  { method: 'POST', path: `/api/fleets/${FLEETS[1]}/move`, signedIn: true },
  { method: 'POST', path: '/api/fleets', json: { name: 'Rogue' }, signedIn: true },
  { method: 'POST', path: '/api/warp', signedIn: true },
  { method: 'GET', path: '/api/leaderboard' },
];

/** One request as the proxy would hand it to the recorder. */
async function send(base: string, { method, path, json }: Request, token?: string): Promise<Exchange> {
  const requestHeaders: Record<string, string> = {
    ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    ...(json === undefined ? {} : { 'content-type': 'application/json' }),
  };
  const requestBody = json === undefined ? undefined : JSON.stringify(json);
  const sentAt = Date.now();
  const response = await fetch(`${base}${path}`, { method, headers: requestHeaders, ...(requestBody === undefined ? {} : { body: requestBody }) });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const headers = Object.fromEntries(response.headers);
  return { method, url: `${base}${path}`, requestHeaders, requestBody, status: response.status, headers, text, body, sentAt, receivedAt: Date.now() };
}

/** Registers and verifies EMAIL, the code read where `codeFor` finds it; returns the sign-in's exchanges and the token. */
async function signIn(base: string, codeFor: (email: string) => Promise<string>) {
  const registered = await send(base, { method: 'POST', path: '/api/auth/register', json: { email: EMAIL } });
  const verified = await send(base, { method: 'POST', path: '/api/auth/verify-email', json: { email: EMAIL, otp: await codeFor(EMAIL) } });
  const token = (verified.body as { authToken: string }).authToken;
  const player = await send(base, { method: 'GET', path: '/api/player' }, token);
  return { exchanges: [registered, verified, player], token, playerId: (player.body as { player: { id: string } }).player.id };
}

let deployment: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (deployment === undefined ? resolve() : deployment.close(() => resolve())));
  deployment?.closeAllConnections();
  deployment = undefined;
});

async function startDeployment(): Promise<{ url: string; otps: OtpDelivery[] }> {
  const otps: OtpDelivery[] = [];
  const server = createNodeServer(createService({ routes: DEPLOYMENT_ROUTES, onOtp: (delivery) => otps.push(delivery) }));
  deployment = server;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, otps };
}

/** A recorded value with the recording player's id where the replaying player's stands: `{{player.id}}` gives each its own. */
function withPlayerId(value: unknown, from: string, to: string): unknown {
  return JSON.parse(JSON.stringify(value).replaceAll(from, to));
}

describe('proxy --record, replayed by mock --config', () => {
  it('answers the recorded routes with the same status and body, and writes no token or address', async () => {
    const live = await startDeployment();
    const liveSession = await signIn(live.url, async (email) => live.otps.findLast((delivery) => delivery.email === email)!.code);
    const recorded: Exchange[] = [];
    for (const request of SESSION) recorded.push(await send(live.url, request, request.signedIn ? liveSession.token : undefined));

    const recording = recordRoutes([...liveSession.exchanges, ...recorded]);
    const file = join(tempDir(), 'recorded.json');
    await writeRecordedRoutes(file, recording.config);
    const written = readFileSync(file, 'utf8');
    for (const secret of [liveSession.token, EMAIL, 'ace@studio.example', liveSession.playerId]) expect(written).not.toContain(secret);
    expect(
      recording.config.routes.map(({ method, path, category, cost }) => `${category} ${method} ${path}${cost === undefined ? '' : ` cost ${cost}`}`),
    ).toEqual([
      'read GET /api/galaxy/:galaxyId/sectors',
      'gameplay POST /api/fleets/:fleetId/move cost 2',
      'gameplay POST /api/fleets cost 0',
      'gameplay POST /api/warp cost 1',
      'public GET /api/leaderboard',
    ]);
    expect(recording.notes).toEqual(['POST /api/warp: costs 1 action point: no answer showed the points it spent']);
    expect(recording.skipped.map(({ method, path }) => `${method} ${path}`)).toEqual([
      'POST /api/auth/register',
      'POST /api/auth/verify-email',
      'GET /api/player',
      'GET /health',
    ]);

    const { url } = await startMock(cli, ['--port', '0', '--config', file]);
    const replaySession = await signIn(url, async (email) => {
      const outbox = (await (await fetch(`${url}/__mock/outbox?email=${encodeURIComponent(email)}`)).json()) as { messages: { code: string }[] };
      return outbox.messages[0]!.code;
    });
    for (const [index, request] of SESSION.entries()) {
      if (request.path === '/health') continue;
      const original = recorded[index]!;
      const replayed = await send(url, request, request.signedIn ? replaySession.token : undefined);
      // Redacted values are the one difference meant: the leaderboard's address is a placeholder.
      const expected =
        request.path === '/api/leaderboard' ? { ...(original.body as object), top: [{ name: 'Ace', email: 'player1@example.com' }] } : original.body;
      expect({ request: `${request.method} ${request.path}`, status: replayed.status, body: replayed.body }).toEqual({
        request: `${request.method} ${request.path}`,
        status: original.status,
        body: withPlayerId(expected, liveSession.playerId, replaySession.playerId),
      });
      expect(replayed.headers['x-actionpoints-remaining']).toBe(original.headers['x-actionpoints-remaining']);
    }
  });
});
