import { HEADERS, RATE_LIMITS, RATE_LIMIT_WINDOW_MS, type RateLimitCategory } from '../../src/spec/limits.js';
import { specRoute } from '../../src/spec/routes.js';
import type { ClockControl } from '../target/clock-control.js';
import type { ConformanceConfig } from '../target/target-config.js';
import { integerHeader } from '../common/exchange.js';
import type { Identity } from '../target/identities.js';
import { RateLimitModel } from '../rules/model/rate-limit-model.js';
import { instant, ServerClock } from '../rules/model/server-time.js';
import { createOtpSource, type OtpSource } from '../otp/index.js';
import { controlSignIn, signIn, uniqueEmail, type SignedIn } from '../fixtures/players.js';
import type { Call } from '../target/call.js';
import { Target } from '../target/target.js';
import { PlayerSupply } from './player-supply.js';
import { planAddresses, QuietTracker, type AddressPlan } from './real-time-pool.js';
import { ServerChoices } from '../rules/session/server-choices.js';
import { RuleSessions } from '../rules/session/rule-sessions.js';
import { FUZZ_RULES } from '../rules/index.js';
import type { Step } from './step.js';

/** A signed-in player the commands act as; `label` is how the model and the report name it. */
export interface FuzzPlayer {
  label: string;
  /** One token, or two where the control API issues a second for free: the player's buckets are the same for both. */
  tokens: readonly string[];
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
  /** The sessions the fuzzed rules open, for this run's traffic alone. */
  ruleSessions: RuleSessions;
}

const IDENTITIES_PER_RUN = 3;
const PLAYERS_PER_RUN = 2;
/** Past the end of every window a run opened. */
const QUIET_MARGIN_MS = 2_000;
/** Players signed in ahead in real time: two sequences' worth. */
const PLAYERS_AHEAD = 2 * PLAYERS_PER_RUN;
const HEALTH = specRoute('health').path;

/**
 * The target and what a fuzzing session knows of it. Each run starts with every bucket it can touch empty:
 * on a target with clock control by moving its frozen clock a window on; in real time on client addresses and
 * players whose windows have ended (fresh ones where the pool allows, else by waiting).
 */
export class FuzzSession {
  readonly config: ConformanceConfig;
  readonly target: Target;
  readonly otp: OtpSource | null;
  readonly clock: ClockControl | undefined;
  /**
   * The choices learned so far. With clock control each run starts from those the session's start learned, so that
   * a failure replays from its sequence alone: a run judged on what an earlier run taught (a unit learned from a
   * broken server's stale answers, say) would not fail again when replayed by itself.
   */
  choices = new ServerChoices();
  #startChoices: ServerChoices | undefined;
  /** In real time, the server's clock as its Date headers show it. */
  readonly serverClock = new ServerClock();
  readonly stats = { runs: 0, commands: 0, requests: 0, limited: 0 };
  readonly #stopping = new AbortController();
  #sessionPlayers: SignedIn[] | undefined;
  /** Real time: which addresses sign players in and which send sequences, and when each is quiet again. */
  readonly #addresses: AddressPlan | undefined;
  readonly #quiet: QuietTracker | undefined;
  #supply: PlayerSupply | undefined;
  /** The players of the run before, some of which it may not have used. */
  #lastPlayers: SignedIn[] = [];

  constructor(config: ConformanceConfig) {
    this.config = config;
    this.target = new Target(config);
    this.otp = config.otpSource === null ? null : createOtpSource(config.otpSource, this.target);
    this.clock = this.target.clock;
    if (this.clock === undefined) {
      this.#addresses = planAddresses(this.target.identities, IDENTITIES_PER_RUN);
      this.#quiet = new QuietTracker(this.target.identities, this.#addresses);
    }
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

  /** Real time: how many addresses send sequences and how many sign players in ahead. */
  get addressPlan(): { sequences: number; signIns: number } | undefined {
    if (this.#addresses === undefined) return undefined;
    const count = (addresses: AddressPlan['sequences']) => (addresses === 'unlimited' ? Number.POSITIVE_INFINITY : addresses.length);
    return { sequences: count(this.#addresses.sequences), signIns: this.playerCount === 0 ? 0 : count(this.#addresses.signIns) };
  }

  /** Whether real-time sequences can run back to back: addresses to spare beyond one sequence's, and players signed in ahead. */
  get backToBack(): boolean {
    const plan = this.addressPlan;
    return plan !== undefined && plan.sequences > this.identityCount && (this.playerCount === 0 || plan.signIns > 0);
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
    const { clock } = this;
    if (clock === undefined) return this.#startRealTime(this.#addresses!, this.#quiet!);
    if (this.config.capabilities?.players !== true && this.otp !== null) this.#sessionPlayers = await this.#signInPlayers(undefined);
    const frozenAt = await clock.freeze();
    // Past every window, and half a window past a clock minute: windows from the first hit and windows on
    // clock minutes then end half a window apart, so one answer tells them apart whatever the server rounds.
    const emptyAt = frozenAt + RATE_LIMIT_WINDOW_MS + QUIET_MARGIN_MS;
    const toHalfWindow = (((RATE_LIMIT_WINDOW_MS / 2 - (emptyAt % RATE_LIMIT_WINDOW_MS)) % RATE_LIMIT_WINDOW_MS) + RATE_LIMIT_WINDOW_MS) % RATE_LIMIT_WINDOW_MS;
    const atMs = await clock.advance(emptyAt - frozenAt + toHalfWindow);
    const health = await this.target.send({ method: 'GET', path: HEALTH, identity: this.target.identities.fresh(), expectLimit: true });
    const reset = integerHeader(health, HEADERS.rateLimitReset);
    const firstHit = integerHeader(health, HEADERS.rateLimitRemaining) === RATE_LIMITS.public.limit - 1;
    if (reset !== undefined) this.choices.readReset({ value: reset, at: instant(atMs) }, firstHit, 'public');
    this.#startChoices = this.choices.copy();
  }

  /** Ends a wait in progress: the run bound (--max-duration) was reached. */
  stop(): void {
    this.#stopping.abort(new Error('the fuzzing session was stopped'));
  }

  get stopped(): boolean {
    return this.#stopping.signal.aborted;
  }

  async close(): Promise<void> {
    await this.#supply?.close();
    if (this.clock !== undefined) await this.clock.unfreeze().catch(() => {});
    await this.target.identities.close();
  }

  /**
   * Real time: players are signed in ahead from the sign-in addresses where there are any (while the first
   * sequence waits for the windows of requests sent before the run); else two are signed in once, and the
   * sequences wait for their windows.
   */
  async #startRealTime(addresses: AddressPlan, quiet: QuietTracker): Promise<void> {
    if (this.playerCount === 0) return;
    const { signIns } = addresses;
    if (signIns === 'unlimited' || signIns.length > 0) {
      this.#supply = new PlayerSupply({
        addresses: signIns === 'unlimited' ? () => this.target.identities.fresh() : signIns,
        pacer: this.target.pacer,
        signIn: (identity) => signIn(this, identity),
        ahead: PLAYERS_AHEAD,
        signal: this.#stopping.signal,
      });
      return;
    }
    const [identity] = quiet.addresses(1);
    this.#sessionPlayers = await this.#signInPlayers(identity);
    quiet.counted(identity!.label);
  }

  /** A run's fresh start: empty buckets, its clients and players, and a model that knows the choices learned (see `choices`). */
  async startRun(): Promise<{ model: RunModel; real: RunReal }> {
    const run = ++this.stats.runs;
    let nowMs: number | undefined;
    let identities: Identity[];
    let players: SignedIn[];
    if (this.clock !== undefined) {
      this.choices = this.#startChoices!.copy();
      nowMs = await this.clock.advance(RATE_LIMIT_WINDOW_MS + QUIET_MARGIN_MS);
      identities = Array.from({ length: this.identityCount }, () => this.target.identities.fresh());
      players = await this.#players();
    } else {
      identities = this.#quiet!.addresses(this.identityCount);
      players = await this.#realTimePlayers(run);
      await this.#quiet!.waitForQuiet(
        run,
        identities,
        players.map((player) => player.token),
        this.#stopping.signal,
      );
    }
    const limits = new RateLimitModel({
      alignments: (category) => this.choices.alignmentFor(category),
      boundaryToleranceMs: this.clock === undefined ? 2_000 : 1_000,
    });
    const labelled = await Promise.all(players.map(async (player, index) => ({ label: `player ${index + 1}`, tokens: await this.#tokensOf(player) })));
    return {
      model: { limits, nowMs, pending: [] },
      real: { session: this, identities, players: labelled, steps: [], ruleSessions: new RuleSessions(FUZZ_RULES) },
    };
  }

  /** A counted request was sent now: in real time its address or player (as the bucket's scope says) is busy for a window. */
  counted(call: Call & { identity: Identity }, category: RateLimitCategory | undefined): void {
    const key = category !== undefined && RATE_LIMITS[category].scope === 'player' ? call.token : call.identity.label;
    if (key !== undefined) this.#quiet?.counted(key);
  }

  /** Fresh players from the supply (those the run before never used go back first), or the session's two. */
  async #realTimePlayers(run: number): Promise<SignedIn[]> {
    if (this.#supply === undefined) return this.#sessionPlayers ?? [];
    this.#supply.giveBack(this.#lastPlayers.filter((player) => !this.#quiet!.used(player.token)));
    this.#lastPlayers = await this.#supply.take(PLAYERS_PER_RUN, run);
    return this.#lastPlayers;
  }

  /** New players each run where the control API makes them; else the two the session signed in for real at its start. */
  async #players(): Promise<SignedIn[]> {
    if (this.config.capabilities?.players === true) return Promise.all(Array.from({ length: PLAYERS_PER_RUN }, () => signIn(this)));
    return this.#sessionPlayers ?? [];
  }

  /** The player's token, and a second one where the control API issues it (it keeps the first valid). */
  async #tokensOf(player: SignedIn): Promise<string[]> {
    if (this.config.capabilities?.players !== true) return [player.token];
    return [player.token, (await controlSignIn(this, player.email)).token];
  }

  /** One after the other, so that the scheduler keeps the sign-ins within the auth budget. */
  async #signInPlayers(identity: Identity | undefined): Promise<SignedIn[]> {
    const players: SignedIn[] = [];
    for (let index = 0; index < PLAYERS_PER_RUN; index++) players.push(await signIn(this, identity));
    return players;
  }
}
