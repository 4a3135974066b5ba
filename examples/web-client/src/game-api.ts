/** The Game Service calls this client makes, over fetch, with the bearer token once signed in. */

/** The spec's headers; a page reads them only when the server exposes them through CORS. */
export const SPEC_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-ActionPoints-Remaining',
  'X-ActionPoints-NextRefill',
] as const;
export type SpecHeader = (typeof SPEC_HEADERS)[number];

/** One answer as this page saw it; a header is null when absent or not exposed to the page. */
export interface Answer {
  method: string;
  path: string;
  status: number;
  body: Record<string, unknown>;
  headers: Record<SpecHeader, string | null>;
}

/** The fields this client gives a ship, and the ones the server owns: where it is and what it holds. */
export interface Ship {
  id: string;
  name: string;
  current_sector: number;
  credits: number;
  galaxyId?: number;
  classId?: string;
}

export interface Sector {
  id: number;
  name: string;
  /** The sector's port, where it has one. */
  port?: string | null;
}

/** A refused request, with the server's own `error` message. */
export class ApiError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

export class GameApi {
  readonly #baseUrl: string;
  readonly #onAnswer: (answer: Answer) => void;
  #token: string | undefined;

  /** `token`: one kept from an earlier visit, to go on without signing in. */
  constructor(baseUrl: string, onAnswer: (answer: Answer) => void, token?: string) {
    this.#baseUrl = baseUrl;
    this.#onAnswer = onAnswer;
    this.#token = token;
  }

  get token(): string | undefined {
    return this.#token;
  }

  async register(email: string): Promise<string> {
    const body = succeeded(await this.#send('POST', '/api/auth/register', { email }));
    return String(body['message']);
  }

  async verify(email: string, otp: string): Promise<void> {
    const body = succeeded(await this.#send('POST', '/api/auth/verify-email', { email, otp }));
    this.#token = String(body['authToken']);
  }

  /** The player's ship, or null before one is created (the server answers 404); a token no longer valid throws 401. */
  async ship(): Promise<Ship | null> {
    const answer = await this.#send('GET', '/api/player/ship');
    return answer.status === 404 ? null : (succeeded(answer)['ship'] as Ship);
  }

  async createShip(ship: { galaxyId: number; shipName: string; classId: string }): Promise<Ship> {
    return succeeded(await this.#send('POST', '/api/player/ship', ship))['ship'] as Ship;
  }

  /** Every sector of the galaxy, to move to. */
  async sectors(galaxyId: number): Promise<Sector[]> {
    return succeeded(await this.#send('GET', `/api/galaxy/${galaxyId}/sectors`))['sectors'] as Sector[];
  }

  /** One sector, asked for by query as the game's server answers it. */
  async sector(galaxyId: number, sectorId: number): Promise<Sector> {
    return succeeded(await this.#send('GET', `/api/galaxy/${galaxyId}/sector?id=${sectorId}`))['sector'] as Sector;
  }

  async move(sectorId: number): Promise<void> {
    succeeded(await this.#send('POST', '/api/player/ship/move', { sectorId }));
  }

  async #send(method: string, path: string, json?: object): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (json !== undefined) headers['Content-Type'] = 'application/json';
    if (this.#token !== undefined) headers['Authorization'] = `Bearer ${this.#token}`;
    const init: RequestInit = { method, headers, ...(json === undefined ? {} : { body: JSON.stringify(json) }) };
    // A request the browser blocks (server down, CORS refused) has no status: say where to look.
    const response = await fetch(`${this.#baseUrl}${path}`, init).catch(() => {
      throw new ApiError(0, `Could not reach ${this.#baseUrl} (${method} ${path}): is the mock running, and does it let this page's origin through CORS?`);
    });
    const readable = Object.fromEntries(SPEC_HEADERS.map((name) => [name, response.headers.get(name)]));
    const answer = { method, path, status: response.status, body: await response.json(), headers: readable as Answer['headers'] };
    this.#onAnswer(answer);
    return answer;
  }
}

function succeeded(answer: Answer): Record<string, unknown> {
  if (answer.status >= 400) throw new ApiError(answer.status, String(answer.body['error'] ?? `${answer.method} ${answer.path} answered ${answer.status}`));
  return answer.body;
}
