import fc from 'fast-check';
import { ROUTES, type RouteSpec } from '../../src/spec/routes.js';
import type { Caller } from '../rules/model/rate-limit-model.js';
import type { FuzzPlayer, FuzzSession, RunModel, RunReal } from './fuzz-session.js';
import type { Outcome } from '../rules/model/modelled-answer.js';
import { lookAlikeOrigins } from '../target/look-alike-origins.js';
import { sendStep } from './send-step.js';

/**
 * Who sends a command's request: which of the run's client addresses, and its Origin: none, the game origin,
 * or one that only looks like it (a longer host name, another scheme or port), counted like any external caller.
 */
export interface Sender {
  identity: number;
  origin: 'none' | 'game' | 'look-alike';
}

const ORIGIN_LABELS: Readonly<Record<Sender['origin'], string>> = {
  none: '',
  game: ' with the game origin',
  'look-alike': ' with an origin like the game origin',
};

type FuzzCommand = fc.AsyncCommand<RunModel, RunReal>;

const route = (id: string): RouteSpec => ROUTES.find((candidate) => candidate.id === id)!;
const HEALTH = route('health');
const REGISTER = route('register');
const VERIFY = route('verifyEmail');
const GET_PLAYER = route('getPlayer');
const CREATE_SHIP = route('createShip');
/** A code no server sends to an address it never registered. */
const UNSENT_CODE = '000000';

function describeSender(sender: Sender, real: RunReal): string {
  const identity = real.identities[sender.identity]!;
  return `from ${identity.label}${ORIGIN_LABELS[sender.origin]}`;
}

function senderLabel(sender: Sender): string {
  return `client ${sender.identity + 1}${sender.origin === 'none' ? '' : `, ${sender.origin === 'game' ? 'game origin' : 'look-alike origin'}`}`;
}

/** The request a command sends, its caller as the model sees it, and the answer due when no limit applies. */
async function send(
  model: RunModel,
  real: RunReal,
  sender: Sender,
  what: string,
  request: { route: RouteSpec; token?: string; json?: unknown; player?: string; outcome: Outcome },
) {
  const identity = real.identities[sender.identity]!;
  const { gameOrigin } = real.session.config;
  const origin = sender.origin === 'none' ? undefined : sender.origin === 'game' ? gameOrigin! : lookAlikeOrigins(gameOrigin!)[sender.identity % 3];
  const caller: Caller = { ip: identity.label, playerId: request.player, gameOrigin: sender.origin === 'game' };
  return sendStep(model, real, {
    description: `${what} ${describeSender(sender, real)}`,
    call: {
      method: request.route.method,
      path: request.route.path,
      identity,
      ...(origin === undefined ? {} : { origin }),
      ...(request.token === undefined ? {} : { token: request.token }),
      ...(request.json === undefined ? {} : { json: request.json }),
    },
    caller,
    outcome: request.outcome,
  });
}

class HealthCommand implements FuzzCommand {
  constructor(readonly sender: Sender) {}
  check = () => true;
  async run(model: RunModel, real: RunReal) {
    await send(model, real, this.sender, 'GET /health', { route: HEALTH, outcome: 'health' });
  }
  toString = () => `health(${senderLabel(this.sender)})`;
}

class RegisterCommand implements FuzzCommand {
  constructor(readonly sender: Sender) {}
  check = () => true;
  async run(model: RunModel, real: RunReal) {
    const email = real.session.email('register');
    await real.session.otp?.beforeRegister(email);
    const exchange = await send(model, real, this.sender, `register ${email}`, { route: REGISTER, json: { email }, outcome: 'success' });
    if (exchange.status === 200) model.pending.push(email);
  }
  toString = () => `register(${senderLabel(this.sender)})`;
}

/** Verifies a code this run registered (read from the OTP source), or, with none, an address that has no code. */
class VerifyCommand implements FuzzCommand {
  constructor(
    readonly sender: Sender,
    readonly pick: number,
  ) {}
  check = () => true;
  async run(model: RunModel, real: RunReal) {
    const { otp } = real.session;
    if (otp === null || model.pending.length === 0) {
      const email = real.session.email('unregistered');
      await send(model, real, this.sender, `verify ${email} (never registered)`, { route: VERIFY, json: { email, otp: UNSENT_CODE }, outcome: 'refusal' });
      return;
    }
    const [email] = model.pending.splice(this.pick % model.pending.length, 1) as [string];
    const code = await otp.codeFor(email);
    const exchange = await send(model, real, this.sender, `verify ${email} with its code`, { route: VERIFY, json: { email, otp: code }, outcome: 'success' });
    if (exchange.status === 429) model.pending.push(email);
  }
  toString = () => `verify(${senderLabel(this.sender)}, pick ${this.pick})`;
}

/** A player's token, and how a step names it (which token, where the player has two). */
function playerToken(player: FuzzPlayer, pick: number): { token: string; as: string } {
  const index = pick % player.tokens.length;
  return { token: player.tokens[index]!, as: player.tokens.length > 1 ? `${player.label} (token ${index + 1})` : player.label };
}

class ReadPlayerCommand implements FuzzCommand {
  constructor(
    readonly sender: Sender,
    readonly player: number,
    readonly tokenPick: number,
  ) {}
  check = () => true;
  async run(model: RunModel, real: RunReal) {
    const player = real.players[this.player]!;
    const { token, as } = playerToken(player, this.tokenPick);
    await send(model, real, this.sender, `GET /api/player as ${as}`, {
      route: GET_PLAYER,
      token,
      player: player.label,
      outcome: 'success',
    });
  }
  toString = () => `readPlayer(${senderLabel(this.sender)}, player ${this.player + 1}, token ${this.tokenPick + 1})`;
}

/** The ship payload is not shown (--ship-payload), so any answer below 500 will do; what is judged is the gameplay bucket. */
class CreateShipCommand implements FuzzCommand {
  constructor(
    readonly sender: Sender,
    readonly player: number,
    readonly tokenPick: number,
  ) {}
  check = () => true;
  async run(model: RunModel, real: RunReal) {
    const player = real.players[this.player]!;
    const { token, as } = playerToken(player, this.tokenPick);
    await send(model, real, this.sender, `POST /api/player/ship as ${as}`, {
      route: CREATE_SHIP,
      token,
      json: real.session.config.shipPayload,
      player: player.label,
      outcome: 'handled',
    });
  }
  toString = () => `createShip(${senderLabel(this.sender)}, player ${this.player + 1}, token ${this.tokenPick + 1})`;
}

class AdvanceClockCommand implements FuzzCommand {
  constructor(readonly ms: number) {}
  check = (model: Readonly<RunModel>) => model.nowMs !== undefined;
  async run(model: RunModel, real: RunReal) {
    model.nowMs = await real.session.clock!.advance(this.ms);
    real.steps.push({ description: `advance the target's clock by ${this.ms / 1000} s`, findings: [] });
  }
  toString = () => `advanceClock(${this.ms / 1000} s)`;
}

/** Clock moves that land inside a window, at its edge (where either answer is allowed) and past it. */
export const CLOCK_STEPS_MS = [1_000, 15_000, 30_000, 59_000, 60_000, 61_000, 90_000] as const;

/**
 * The commands a session can send: reads and gameplay need players, clock moves need clock control. Most
 * requests come from the run's first client, and auth requests are the most frequent, so that sequences
 * run buckets out (the auth bucket holds 5) and not only count them.
 */
export function commandArbitrary(session: FuzzSession): fc.Arbitrary<FuzzCommand> {
  const identity = fc.oneof({ arbitrary: fc.constant(0), weight: 3 }, { arbitrary: fc.nat({ max: session.identityCount - 1 }), weight: 1 });
  // Cross-shrinking takes a sender back to no Origin where the failure does not need one.
  const origins: fc.Arbitrary<Sender['origin']> = fc.oneof(
    { withCrossShrink: true },
    { arbitrary: fc.constant('none' as const), weight: 2 },
    { arbitrary: fc.constant('game' as const), weight: 2 },
    { arbitrary: fc.constant('look-alike' as const), weight: 1 },
  );
  const sender = fc.record({ identity, origin: session.config.gameOrigin === null ? fc.constant<Sender['origin']>('none') : origins });
  const player = fc.nat({ max: Math.max(0, session.playerCount - 1) });
  const commands: fc.WeightedArbitrary<FuzzCommand>[] = [
    { arbitrary: sender.map((s) => new RegisterCommand(s)), weight: 3 },
    { arbitrary: fc.tuple(sender, fc.nat({ max: 7 })).map(([s, pick]) => new VerifyCommand(s, pick)), weight: 2 },
    { arbitrary: sender.map((s) => new HealthCommand(s)), weight: 2 },
  ];
  if (session.playerCount > 0) {
    // Either of a player's tokens: the model keys reads and gameplay by player, so both count in one bucket.
    const tokenPick = fc.nat({ max: 1 });
    commands.push({ arbitrary: fc.tuple(sender, player, tokenPick).map(([s, p, t]) => new ReadPlayerCommand(s, p, t)), weight: 2 });
    commands.push({ arbitrary: fc.tuple(sender, player, tokenPick).map(([s, p, t]) => new CreateShipCommand(s, p, t)), weight: 2 });
  }
  if (session.clock !== undefined) commands.push({ arbitrary: fc.constantFrom(...CLOCK_STEPS_MS).map((ms) => new AdvanceClockCommand(ms)), weight: 1 });
  return fc.oneof(...commands);
}
