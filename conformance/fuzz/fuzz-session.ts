import { setTimeout as delay } from 'node:timers/promises';
import { HEADERS, RATE_LIMITS, RATE_LIMIT_WINDOW_MS } from '../../src/spec/limits.js';
import { ROUTES } from '../../src/spec/routes.js';
import type { ClockControl } from '../clock-control.js';
import type { ConformanceConfig } from '../config.js';
import { integerHeader } from '../exchange.js';
import type { Identity } from '../identities.js';
import { RateLimitModel } from '../model/rate-limit-model.js';
import { instant } from '../model/server-time.js';
import { createOtpSource, type OtpSource } from '../otp/index.js';
import { notice } from '../pacing.js';
import { signIn, uniqueEmail } from '../players.js';
import { Target } from '../target.js';
import { ServerChoices } from './server-choices.js';
import type { Step } from './step.js';

/** A signed-in player the commands act as; `label` is how the model and the report name it. */
export interface FuzzPlayer {
  label: string;
  token: string;
}

/** What one run of a command sequence starts from: the model's side. */
export interface RunModel {
  limits: RateLimitModel;
  /** The target's clock when it is frozen (clock control), else undefined: real time. */
  nowMs: number | undefined;
  /** Addresses registered in this run whose code has not been used yet. */
  pending: string[];
}

/** What one run of a command sequence starts from: the target's side, and the steps it took. */
export interface RunReal {
  session: FuzzSession;
  identities: readonly Identity[];
  players: readonly FuzzPlayer[];
  steps: Step[];
}

const IDENTITIES_PER_RUN = 3;
const PLAYERS_PER_RUN = 2;
/** Past the end of every window a run opened. */
const QUIET_MARGIN_MS = 2_000;
const HEALTH = ROUTES.find((route) => route.id === 'health')!.path;

/**
 * The target and what a fuzzing session knows of it. Each run starts with every bucket it can touch empty:
 * on a target with clock control by moving its frozen clock a window on, in real time by waiting.
 */
export class FuzzSession {
  readonly config: ConformanceConfig;
  readonly target: Target;
  readonly otp: OtpSource | null;
  readonly clock: ClockControl | undefined;
  readonly choices = new ServerChoices();
  readonly stats = { runs: 0, commands: 0, requests: 0, limited: 0 };
  /** Local time after which every window opened so far has ended (real time). */
  quietAtMs = 0;
  readonly #stopping = new AbortController();
  #sessionPlayers: FuzzPlayer[] | undefined;

  constructor(config: ConformanceConfig) {
    this.config = config;
    this.target = new Target(config);
    this.otp = config.otpSource === null ? null : createOtpSource(config.otpSource, this.target);
    this.clock = this.target.clock;
  }

  /** Whether the commands can act as signed-in players. */
  get canSignIn(): boolean {
    return this.config.capabilities?.players === true || this.otp !== null;
  }

  /** How many client addresses a run sends from. */
  get identityCount(): number {
    return Math.min(IDENTITIES_PER_RUN, this.target.identities.distinct);
  }

  get playerCount(): number {
    return this.canSignIn ? PLAYERS_PER_RUN : 0;
  }

  /** An address no earlier request of the session used. */
  email(label: string): string {
    return uniqueEmail(this, `fuzz-${label}`);
  }

  /**
   * Freezes a clock-controlled target, so that every boundary the model computes is exact, and learns its
   * choices from one public request on an empty bucket. In real time the first run's responses teach them.
   */
  async start(): Promise<void> {
    if (this.config.capabilities?.players !== true && this.otp !== null) this.#sessionPlayers = await this.#signInPlayers();
    if (this.clock === undefined) {
      // Probing the target (and signing players in) counted in its buckets: the first sequence waits for those windows too.
      this.counted();
      return;
    }
    const frozenAt = await this.clock.freeze();
    // Past every window, and half a window past a clock minute: windows from the first hit and windows on
    // clock minutes then end half a window apart, so one answer tells them apart whatever the server rounds.
    const emptyAt = frozenAt + RATE_LIMIT_WINDOW_MS + QUIET_MARGIN_MS;
    const toHalfWindow = (((RATE_LIMIT_WINDOW_MS / 2 - (emptyAt % RATE_LIMIT_WINDOW_MS)) % RATE_LIMIT_WINDOW_MS) + RATE_LIMIT_WINDOW_MS) % RATE_LIMIT_WINDOW_MS;
    const atMs = await this.clock.advance(emptyAt - frozenAt + toHalfWindow);
    const health = await this.target.send({ method: 'GET', path: HEALTH, identity: this.target.identities.fresh(), expectLimit: true });
    const reset = integerHeader(health, HEADERS.rateLimitReset);
    const firstHit = integerHeader(health, HEADERS.rateLimitRemaining) === RATE_LIMITS.public.limit - 1;
    if (reset !== undefined) this.choices.readReset({ value: reset, at: instant(atMs) }, firstHit);
  }

  /** Ends a wait in progress: the run bound (--max-duration) was reached. */
  stop(): void {
    this.#stopping.abort(new Error('the fuzzing session was stopped'));
  }

  get stopped(): boolean {
    return this.#stopping.signal.aborted;
  }

  async close(): Promise<void> {
    if (this.clock !== undefined) await this.clock.unfreeze().catch(() => {});
    await this.target.identities.close();
  }

  /** A run's fresh start: empty buckets, its clients and players, and a model that knows the choices learned so far. */
  async startRun(): Promise<{ model: RunModel; real: RunReal }> {
    this.stats.runs++;
    let nowMs: number | undefined;
    if (this.clock !== undefined) nowMs = await this.clock.advance(RATE_LIMIT_WINDOW_MS + QUIET_MARGIN_MS);
    else await this.#waitForQuiet();
    const identities = Array.from({ length: this.identityCount }, () => this.target.identities.fresh());
    const limits = new RateLimitModel({ alignment: this.choices.alignment ?? 'first-hit', boundaryToleranceMs: this.clock === undefined ? 2_000 : 1_000 });
    return { model: { limits, nowMs, pending: [] }, real: { session: this, identities, players: await this.#players(), steps: [] } };
  }

  /** A counted request was sent now: real-time runs wait for its window to end. */
  counted(): void {
    this.quietAtMs = Date.now() + RATE_LIMIT_WINDOW_MS + QUIET_MARGIN_MS;
  }

  async #waitForQuiet(): Promise<void> {
    const waitMs = this.quietAtMs - Date.now();
    if (waitMs <= 0) return;
    if (waitMs > 2_000) notice(`sequence ${this.stats.runs}: waiting ${Math.ceil(waitMs / 1000)} s for the rate-limit windows of earlier requests to end (real time)`);
    await delay(waitMs, undefined, { signal: this.#stopping.signal });
  }

  /** New players each run where the control API makes them; else the two the session signed in for real at its start. */
  async #players(): Promise<FuzzPlayer[]> {
    if (this.config.capabilities?.players === true) return Promise.all(Array.from({ length: PLAYERS_PER_RUN }, (_, index) => this.#signIn(index)));
    return this.#sessionPlayers ?? [];
  }

  /** One after the other, so that the scheduler keeps the sign-ins within the auth budget. */
  async #signInPlayers(): Promise<FuzzPlayer[]> {
    const players: FuzzPlayer[] = [];
    for (let index = 0; index < PLAYERS_PER_RUN; index++) players.push(await this.#signIn(index));
    this.counted();
    return players;
  }

  /** As the suite signs a player in: through the control API where the target has one, else register and verify. */
  async #signIn(index: number): Promise<FuzzPlayer> {
    const { token } = await signIn(this);
    return { label: `player ${index + 1}`, token };
  }
}
