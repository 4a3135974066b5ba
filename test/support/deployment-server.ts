import { randomInt, randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { ActionPoints, type Bucket, DeploymentLimits } from './deployment-limits.js';

/**
 * A server as a real deployment of the spec looks to a client, written from the spec and not from the mock:
 * it compresses its answers (br or gzip, as the request's Accept-Encoding allows), sends some of them chunked,
 * keeps a ship whose sector a move changes and whose turns fall with each gameplay call, answers a move with part
 * of the ship (no id, no name), answers a sector by its query for any id of the galaxy (not only those with a
 * name), and makes choices the spec leaves open (Reset in epoch milliseconds, 401 for a wrong code, fields the
 * spec does not name). Departures from the
 * spec can be planted one by one, and drifts of a new release of it; its bodies can be made a decompression bomb
 * or corrupt.
 */

/** Departures from the spec this server can be told to make, each a rule the proxy must report. */
export type PlantedDeparture =
  /** GET /api/player answers without `success: true` (ENV-SUCCESS). */
  | 'player-without-success'
  /** Requests of a game origin are counted in the read and gameplay buckets, headers and all (RL-EXEMPT). */
  | 'counts-game-origin'
  /** A player's reads answer the same X-RateLimit-Remaining each time (RL-REMAINING): seen only once the player is known. */
  | 'reads-remaining-stuck'
  /** A token's expiresAt 30 days after its issue, not 7 (TOKEN-LIFETIME). */
  | 'token-for-30-days';

/** Changes a new release of the deployment can make to what its client reads, each a drift `check --recording` must report. */
export type DeploymentDrift =
  /** A sector's `name` is now `title` (GET /api/galaxy/1/sector). */
  | 'sector-name-renamed'
  /** The ship read answers `credits` as a string (GET /api/player/ship only). */
  | 'ship-credits-as-string'
  /** GET /api/galaxy/1/sectors is gone: 404. */
  | 'sectors-route-removed'
  /** A move answers 202 where it answered 200. */
  | 'move-answers-202'
  /** The sectors list's items have no `name`. */
  | 'sectors-items-without-name';

/** What the bodies of the API are while a mode is set: as meant, a gzip bomb, or gzip that does not decode. */
export type BodyMode = 'normal' | 'bomb' | 'corrupt';

export interface DeploymentOptions {
  gameOrigins?: readonly string[];
  departures?: readonly PlantedDeparture[];
  drifts?: readonly DeploymentDrift[];
  /** A file the codes sent are logged to, a line each, as a development server's console shows them. */
  codeLog?: string;
  /**
   * A player's first ship is refused (403) until an operator's script grants it a slot (POST /admin/ship-slots
   * {"email"}), state the client does not make.
   */
  shipsNeedAnOperator?: boolean;
  /** Other values where a client reads the same shape: ship ids from 500, player ids from 40, other sector names. */
  otherValues?: boolean;
  /** The API's routes past sign-in refuse (400) a request without this X-Client-Version, as a server that retires old clients does. */
  clientVersion?: string;
}

export interface RunningDeployment {
  url: string;
  /** The latest code sent to each address, as the console line of a development server would show it. */
  codeFor(email: string): string | undefined;
  setBodyMode(mode: BodyMode): void;
  close(): Promise<void>;
}

export const DEPLOYMENT_VERSION = '2.4.1';
export const SECTORS = [
  { id: 1, name: 'Sol', port: 'Earth Station' },
  { id: 2, name: 'Alpha Centauri', port: null },
  { id: 3, name: 'Vega', port: 'Vega Outpost' },
  { id: 13, name: 'Sirius', port: null },
] as const;
/** Every sector of the galaxy has an id from 1 to this; those not in SECTORS are unnamed. */
export const SECTOR_COUNT = 99;
/** The turns of a new ship: one goes with each gameplay call that succeeds. */
export const STARTING_TURNS = 80;

const SECTORS_ETAG = '"sectors-1"';
const CODE_LIFETIME_MS = 15 * 60_000;
const TOKEN_LIFETIME_MS = 7 * 24 * 3600_000;
const DISPOSABLE = new Set(['mailinator.com', '10minutemail.com', 'guerrillamail.com']);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

interface Ship {
  id: number;
  name: string;
  current_sector: number;
  credits: number;
  galaxyId: number;
  classId: string;
  hull: number;
  turns: number;
}

interface Player {
  id: number;
  email: string;
  createdAt: string;
  points: ActionPoints;
  ship?: Ship;
}

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** A sector of the galaxy by its id: named in SECTORS, else an unnamed one without a port. */
function sectorOf(id: unknown, otherNames = false): { id: number; name: string; port: string | null } | undefined {
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 1 || id > SECTOR_COUNT) return undefined;
  const sector = SECTORS.find((each) => each.id === id) ?? { id, name: `Sector ${id}`, port: null };
  return otherNames ? { ...sector, name: `${sector.name} II` } : sector;
}

const refuse = (status: number, error: string, headers?: Record<string, string>): Answer => ({ status, body: { error }, ...(headers ? { headers } : {}) });

/** 16 MiB of zeros, gzipped to about 16 KiB: what a decompression bomb sends. */
let bombBytes: Buffer | undefined;
const bomb = () => {
  bombBytes ??= gzipSync(Buffer.alloc(16 * 1024 * 1024));
  return bombBytes;
};
/** A gzip header, then bytes that are no deflate stream. */
const CORRUPT = Buffer.concat([Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0x03]), Buffer.from('not deflate at all, just text')]);

async function readBody(incoming: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of incoming) {
    size += (chunk as Buffer).length;
    if (size <= 64 * 1024) chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function jsonOf(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The coding a browser or a script asks for: br before gzip, else none. */
function codingFor(acceptEncoding: string | undefined): 'br' | 'gzip' | undefined {
  const offered = (acceptEncoding ?? '').split(',').map((each) => each.split(';')[0]!.trim().toLowerCase());
  if (offered.includes('br')) return 'br';
  return offered.includes('gzip') ? 'gzip' : undefined;
}

export async function startDeployment(options: DeploymentOptions = {}): Promise<RunningDeployment> {
  const departures = new Set(options.departures ?? []);
  const drifts = new Set(options.drifts ?? []);
  const gameOrigins = new Set(options.gameOrigins ?? []);
  const limits = new DeploymentLimits();
  const codes = new Map<string, { code: string; issuedAt: number }>();
  const tokens = new Map<string, { email: string; expiresAt: number }>();
  const players = new Map<string, Player>();
  let bodyMode: BodyMode = 'normal';
  let shipIds = options.otherValues === true ? 500 : 100;
  const shipSlots = new Set<string>();

  /** The rate-limit headers of a request, or its 429 when its bucket is spent; a game origin's exempt requests carry none. */
  function count(bucket: Bucket, key: string, gameOrigin: boolean): { headers: Record<string, string>; refused?: Answer } {
    const exempt = gameOrigin && bucket !== 'auth' && !departures.has('counts-game-origin');
    if (exempt) return { headers: {} };
    const { headers, limited } = limits.count(bucket, key, Date.now(), bucket === 'read' && departures.has('reads-remaining-stuck'));
    return limited ? { headers, refused: refuse(429, 'Too many requests, slow down', headers) } : { headers };
  }

  function register(body: Record<string, unknown> | undefined): Answer {
    const email = body?.['email'];
    if (typeof email !== 'string' || !EMAIL.test(email)) return refuse(400, 'A valid email is required');
    if (DISPOSABLE.has(email.split('@')[1]!.toLowerCase())) return refuse(400, 'Disposable email addresses are not accepted');
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    codes.set(email.toLowerCase(), { code, issuedAt: Date.now() });
    if (options.codeLog !== undefined) appendFileSync(options.codeLog, `[mailer] verification code for ${email}: ${code}\n`);
    return { status: 200, body: { success: true, message: `A verification code was sent to ${email}` } };
  }

  function verify(body: Record<string, unknown> | undefined): Answer {
    const email = body?.['email'];
    const otp = body?.['otp'];
    if (typeof email !== 'string' || typeof otp !== 'string') return refuse(400, 'email and otp are required');
    const pending = codes.get(email.toLowerCase());
    if (pending === undefined || pending.code !== otp || Date.now() - pending.issuedAt > CODE_LIFETIME_MS) return refuse(401, 'Invalid or expired code');
    codes.delete(email.toLowerCase());
    const token = randomUUID();
    const expiresAt = Date.now() + (departures.has('token-for-30-days') ? 30 * 24 * 3600_000 : TOKEN_LIFETIME_MS);
    tokens.set(token, { email: email.toLowerCase(), expiresAt });
    if (!players.has(email.toLowerCase())) {
      players.set(email.toLowerCase(), {
        id: players.size + (options.otherValues === true ? 40 : 1),
        email,
        createdAt: new Date().toISOString(),
        points: new ActionPoints(Date.now()),
      });
    }
    return { status: 200, body: { success: true, authToken: token, expiresAt: new Date(expiresAt).toISOString() } };
  }

  function createShip(player: Player, body: Record<string, unknown> | undefined): Answer {
    const { galaxyId, shipName, classId } = body ?? {};
    if (typeof galaxyId !== 'number' || typeof shipName !== 'string' || shipName === '') return refuse(400, 'galaxyId and shipName are required');
    if (player.ship !== undefined) return refuse(400, 'You already have a ship');
    if (options.shipsNeedAnOperator === true && !shipSlots.has(player.email.toLowerCase())) return refuse(403, 'No ship slot yet: an operator grants one');
    const spent = player.points.spend(1, Date.now());
    if (!spent.spent) return refuse(403, 'Not enough action points', spent.headers);
    player.ship = {
      id: ++shipIds,
      name: shipName,
      current_sector: 1,
      credits: 1000,
      galaxyId,
      classId: typeof classId === 'string' ? classId : 'scout',
      hull: 100,
      turns: STARTING_TURNS,
    };
    return { status: 200, body: { success: true, ship: { ...player.ship } }, headers: spent.headers };
  }

  function move(player: Player, body: Record<string, unknown> | undefined): Answer {
    if (player.ship === undefined) return refuse(404, 'You have no ship');
    const sectorId = body?.['sectorId'];
    if (sectorOf(sectorId) === undefined) return refuse(400, 'sectorId must be a sector of the galaxy');
    const spent = player.points.spend(1, Date.now());
    if (!spent.spent) return refuse(403, 'Not enough action points', spent.headers);
    player.ship.current_sector = sectorId as number;
    player.ship.turns--;
    // What moved, as a real server answers a move: the ship without its id and name.
    const { id: _id, name: _name, ...moved } = player.ship;
    return { status: drifts.has('move-answers-202') ? 202 : 200, body: { success: true, ship: moved }, headers: spent.headers };
  }

  function galaxy(path: string, query: URLSearchParams, ifNoneMatch: string | undefined): Answer | undefined {
    const match = /^\/api\/galaxy\/(\d+)\/(sectors|sector)$/.exec(path);
    if (match === null) return undefined;
    if (match[1] !== '1') return refuse(404, `No galaxy ${match[1]}`);
    if (match[2] === 'sectors') {
      // The sectors never change: a client that kept them asks again with their ETag, and gets a 304 without a body.
      if (drifts.has('sectors-route-removed')) return refuse(404, `No route ${path}`);
      if (ifNoneMatch === SECTORS_ETAG) return { status: 304, body: undefined, headers: { ETag: SECTORS_ETAG } };
      const listed = SECTORS.map(({ id, name }) => (drifts.has('sectors-items-without-name') ? { id } : { id, name }));
      return { status: 200, body: { success: true, sectors: listed }, headers: { ETag: SECTORS_ETAG } };
    }
    const sector = sectorOf(Number(query.get('id')), options.otherValues);
    if (sector === undefined) return refuse(404, 'No such sector');
    const { name, ...rest } = sector;
    return { status: 200, body: { success: true, sector: drifts.has('sector-name-renamed') ? { ...rest, title: name } : { ...sector } } };
  }

  function playerRoute(incoming: IncomingMessage, player: Player, path: string, query: URLSearchParams, body: Record<string, unknown> | undefined): Answer {
    const method = incoming.method ?? 'GET';
    const key = `${method} ${path}`;
    if (key === 'GET /api/player') {
      const view = { id: player.id, email: player.email, createdAt: player.createdAt, credits: player.ship?.credits ?? 0, rank: 'cadet' };
      return { status: 200, body: departures.has('player-without-success') ? { player: view } : { success: true, player: view } };
    }
    if (key === 'GET /api/player/ship') {
      if (player.ship === undefined) return refuse(404, 'You have no ship yet');
      const credits = drifts.has('ship-credits-as-string') ? String(player.ship.credits) : player.ship.credits;
      return { status: 200, body: { success: true, ship: { ...player.ship, credits } } };
    }
    // A ship by its id, as a client that keeps the id the creation answered asks for it: only the caller's own.
    const byId = method === 'GET' ? /^\/api\/ships\/(\d+)$/.exec(path) : null;
    if (byId !== null)
      return player.ship?.id === Number(byId[1])
        ? { status: 200, body: { success: true, ship: { ...player.ship } } }
        : refuse(404, `No ship ${byId[1]} of yours`);
    if (key === 'POST /api/player/ship') return createShip(player, body);
    if (key === 'POST /api/player/ship/move') return move(player, body);
    if (method === 'GET') return galaxy(path, query, incoming.headers['if-none-match']) ?? refuse(404, `No route ${path}`);
    return refuse(404, `No route ${method} ${path}`);
  }

  async function answer(incoming: IncomingMessage, gameOrigin: boolean): Promise<Answer> {
    const url = new URL(incoming.url ?? '/', 'http://deployment.invalid');
    const method = incoming.method ?? 'GET';
    const ip = incoming.socket.remoteAddress ?? 'unknown';
    const text = await readBody(incoming);
    const body = jsonOf(text);
    if (url.pathname === '/health') {
      if (method !== 'GET' && method !== 'HEAD') return refuse(405, 'Use GET', { Allow: 'GET, HEAD' });
      const { headers, refused } = count('public', ip, gameOrigin);
      return refused ?? { status: 200, body: { success: true, status: 'ok', version: DEPLOYMENT_VERSION }, headers };
    }
    if (url.pathname === '/api/auth/register' || url.pathname === '/api/auth/verify-email') {
      if (method !== 'POST') return refuse(405, 'Use POST', { Allow: 'POST' });
      const { headers, refused } = count('auth', ip, gameOrigin);
      if (refused !== undefined) return refused;
      if (text !== '' && body === undefined) return refuse(400, 'The body must be a JSON object', headers);
      const answered = url.pathname === '/api/auth/register' ? register(body) : verify(body);
      return { ...answered, headers: { ...headers, ...answered.headers } };
    }
    if (url.pathname === '/admin/ship-slots' && method === 'POST' && typeof body?.['email'] === 'string') {
      shipSlots.add(body['email'].toLowerCase());
      return { status: 200, body: { granted: body['email'] } };
    }
    if (!url.pathname.startsWith('/api/')) return refuse(404, 'Not found');
    // The token is checked before routing, as the public deployment does: no route is told to a caller without one.
    const token = /^Bearer (\S+)$/.exec(incoming.headers.authorization ?? '')?.[1];
    const session = token === undefined ? undefined : tokens.get(token);
    if (session === undefined || session.expiresAt <= Date.now()) return refuse(401, 'A valid bearer token is required');
    const player = players.get(session.email)!;
    if (options.clientVersion !== undefined && incoming.headers['x-client-version'] !== options.clientVersion)
      return refuse(400, `This client is too old: send X-Client-Version ${options.clientVersion}`);
    const { headers, refused } = count(method === 'GET' ? 'read' : 'gameplay', String(player.id), gameOrigin);
    if (refused !== undefined) return refused;
    if (text !== '' && body === undefined) return refuse(400, 'The body must be a JSON object', headers);
    const answered = playerRoute(incoming, player, url.pathname, url.searchParams, body);
    return { ...answered, headers: { ...headers, ...answered.headers } };
  }

  function send(incoming: IncomingMessage, outgoing: ServerResponse, answer: Answer, cors: Record<string, string>): void {
    const headers: Record<string, string> = { ...cors, ...answer.headers, 'Content-Type': 'application/json; charset=utf-8', Vary: 'Origin, Accept-Encoding' };
    if (bodyMode !== 'normal' && incoming.url?.startsWith('/api/')) {
      outgoing.writeHead(answer.status, { ...headers, 'Content-Encoding': 'gzip' });
      outgoing.end(bodyMode === 'bomb' ? bomb() : CORRUPT);
      return;
    }
    if (answer.body === undefined) {
      outgoing.writeHead(answer.status, headers).end();
      return;
    }
    const json = Buffer.from(JSON.stringify(answer.body));
    const coding = codingFor(incoming.headers['accept-encoding']);
    if (coding === undefined) {
      outgoing.writeHead(answer.status, { ...headers, 'Content-Length': String(json.length) }).end(json);
      return;
    }
    // Compressed answers go out chunked, as a streaming compressor behind a CDN sends them.
    const compressed = coding === 'br' ? brotliCompressSync(json) : gzipSync(json);
    outgoing.writeHead(answer.status, { ...headers, 'Content-Encoding': coding });
    const half = Math.ceil(compressed.length / 2);
    outgoing.write(compressed.subarray(0, half));
    outgoing.end(compressed.subarray(half));
  }

  const server = createServer((incoming, outgoing) => {
    const origin = incoming.headers.origin;
    const cors: Record<string, string> =
      origin === undefined
        ? {}
        : {
            'Access-Control-Allow-Origin': origin,
            'Access-Control-Expose-Headers':
              'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, X-ActionPoints-Remaining, X-ActionPoints-NextRefill',
          };
    if (incoming.method === 'OPTIONS') {
      outgoing
        .writeHead(204, {
          ...cors,
          'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
          'Access-Control-Allow-Headers': 'Authorization, Content-Type',
          'Access-Control-Max-Age': '600',
        })
        .end();
      return;
    }
    answer(incoming, origin !== undefined && gameOrigins.has(origin)).then(
      (answered) => send(incoming, outgoing, answered, cors),
      () => send(incoming, outgoing, refuse(500, 'Internal server error'), cors),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    codeFor: (email) => codes.get(email.toLowerCase())?.code,
    setBodyMode(mode) {
      bodyMode = mode;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
