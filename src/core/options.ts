import type { RateLimitWindows } from '../spec/limits.js';
import { PACKAGE_VERSION } from '../version.js';
import type { ActionPointRules } from './action-points.js';
import { ActiveVariants } from './active-variants.js';
import type { BotCheck } from './bot-check.js';
import type { CorsOrigins } from './cors.js';
import type { FaultRuleJson } from './fault-rules.js';
import { VirtualClock, type Clock } from './clock.js';
import type { JournalEntry } from './journal.js';
import type { StoreBounds } from './store.js';
import type { StoreEngine, StoreStatusListener } from './store-engine.js';
import { compileUserRoutes, type CompiledUserRoute } from './user-routes/compile-routes.js';
import { compileResourceTemplates, type ResourceTemplates } from './user-routes/resource-templates.js';
import type { UserRoute } from './user-routes/user-route.js';
import { VariantError } from './variant-choice.js';
import type { World } from './world.js';

export interface ControlOptions {
  /** Serve the control API (under CONTROL_PREFIX); default true. */
  enabled?: boolean;
  /** Answer control requests from any address, not only loopback; default false. */
  public?: boolean;
}

export interface OtpDelivery {
  email: string;
  code: string;
  issuedAt: number;
  expiresAt: number;
}

/** The console line a person reads the code from. */
export function formatOtpLine(delivery: OtpDelivery): string {
  return `OTP for ${delivery.email}: ${delivery.code} (expires ${new Date(delivery.expiresAt).toISOString()})`;
}

/** What a caller may set; everything left out takes the default documented in docs/. */
export interface ServiceOptions {
  /** The version /health reports; default this package's version. */
  version?: string;
  /** Default: a running VirtualClock, which the control API can move and freeze. */
  clock?: Clock;
  /** Origins whose requests are exempt from the gameplay, read and public buckets (exact match). */
  gameOrigins?: readonly string[];
  /**
   * Page origins a browser may read the API's answers from (exact match), besides the game origins. Default:
   * every origin, for local development. Grants no rate-limit exemption.
   */
  corsOrigins?: readonly string[];
  botCheck?: BotCheck;
  /** Wrong codes after which the pending code is void; 0 disables the limit. */
  maxWrongOtpAttempts?: number;
  actionPoints?: Partial<ActionPointRules>;
  /** Action-point cost of each gameplay route, by route id. */
  actionCosts?: Readonly<Record<string, number>>;
  /**
   * Routes of your own beyond the spec's (docs/routes.md): any method, `:param` paths, a category of the spec,
   * an answer from templates or a handler function. A gameplay route's cost may also go in actionCosts under its id.
   */
  routes?: readonly UserRoute[];
  /**
   * A request none of a route's `answers` holds for (a value a recording never saw) is answered 404, not from the
   * nearest recorded answer; a route's own strictAnswers outranks it. Default false.
   */
  strictAnswers?: boolean;
  /**
   * Fields of each new ship, as templates over its creation body, the player, `{{now}}` and `{{counter}}`
   * (docs/routes.md): shown over the mock's own fields of GET /api/player/ship, where the spec shows none.
   */
  ship?: Readonly<Record<string, unknown>>;
  /** Fields of each new player, as templates over the player, `{{now}}` and `{{counter}}`: shown over the mock's own. */
  player?: Readonly<Record<string, unknown>>;
  bounds?: Partial<StoreBounds>;
  control?: ControlOptions;
  /** Players to start with. */
  world?: World;
  /** Requests remembered for the control API's journal; default 500. */
  journalSize?: number;
  /**
   * Where fixed one-minute windows start: at each key's first counted request ('first-hit', the default,
   * as the public deployment does) or on clock minutes ('clock-minute'). The spec allows either.
   */
  rateLimitWindows?: RateLimitWindows;
  /**
   * Legal variations to play where the spec is silent (src/spec/variants.ts): variant names, `all`,
   * `random[:SEED]` or `public-deployment`. Default: none, the choices of docs/spec-silent.md.
   */
  variants?: readonly string[];
  /** Fault rules in force from the start, as JSON or in the --fault text form (docs/faults.md). */
  faults?: readonly (FaultRuleJson | string)[];
  /** Seeds the draws of the fault rules (0 to 2^32 - 1); default a random one, which `service.faults.seed` reports. */
  faultSeed?: number;
  /** Where state is kept beyond this process's memory (a state file, Redis); default none: memory only. */
  storeEngine?: StoreEngine;
  /** Told of every request outside the control API, once answered (for request logging). */
  onRequest?: (entry: JournalEntry) => void;
  /** Where codes are delivered, the mock's stand-in for email; by default a console line. */
  onOtp?: (delivery: OtpDelivery) => void;
  /** Told of every unexpected exception (answered with a 500). */
  onError?: (error: unknown) => void;
  /** Told once when the store engine becomes unreachable (requests are answered 503) and once when it is back. */
  onStoreStatus?: StoreStatusListener;
}

export interface ResolvedOptions {
  version: string;
  clock: Clock;
  gameOrigins: ReadonlySet<string>;
  corsOrigins: CorsOrigins;
  botCheck: BotCheck;
  maxWrongOtpAttempts: number;
  actionPoints: ActionPointRules;
  /** Changed with userRoutes, by the control API's routes (live-routes.ts). */
  actionCosts: Readonly<Record<string, number>>;
  /** routes, checked and compiled; the one part that changes after creation (live-routes.ts). */
  userRoutes: readonly CompiledUserRoute[];
  strictAnswers: boolean;
  /** The `ship` and `player` templates, compiled. */
  resources: ResourceTemplates;
  /** The `ship` and `player` templates as given: the OpenAPI document declares the fields they give. */
  resourceTemplates: { ship: Readonly<Record<string, unknown>> | undefined; player: Readonly<Record<string, unknown>> | undefined };
  bounds: StoreBounds;
  control: Required<ControlOptions>;
  world: World | undefined;
  journalSize: number;
  rateLimitWindows: RateLimitWindows;
  storeEngine: StoreEngine | undefined;
  onRequest: ((entry: JournalEntry) => void) | undefined;
  onOtp: (delivery: OtpDelivery) => void;
  onError: (error: unknown) => void;
  onStoreStatus: StoreStatusListener | undefined;
}

export const DEFAULT_ACTION_POINTS: ActionPointRules = { start: 60, max: 60, refillIntervalMs: 60_000 };
export const DEFAULT_ACTION_COSTS: Readonly<Record<string, number>> = { createShip: 0 };
/** outboxSize: delivered codes remembered for the control API's outbox. */
export const DEFAULT_BOUNDS: StoreBounds = { maxPendingCodes: 100_000, maxBuckets: 1_500_000, outboxSize: 1_000 };
export const DEFAULT_MAX_WRONG_OTP_ATTEMPTS = 5;
export const DEFAULT_JOURNAL_SIZE = 500;
export const DEFAULT_BOT_CHECK = { mode: 'off' } as const satisfies BotCheck;
export const DEFAULT_CONTROL = { enabled: true, public: false } as const satisfies Required<ControlOptions>;
export const DEFAULT_GAMEPLAY_ROUTE_COST = 1;

/** The cost of each gameplay route, by id: the spec's defaults, each route of the user's own (or 1), the costs given outranking both. */
export function actionCostsOf(routes: readonly CompiledUserRoute[], given: Readonly<Record<string, number>> | undefined): Record<string, number> {
  const gameplay = routes.filter((route) => route.category === 'gameplay');
  const own = Object.fromEntries(gameplay.map((route) => [route.id, route.definition.cost ?? DEFAULT_GAMEPLAY_ROUTE_COST]));
  return { ...DEFAULT_ACTION_COSTS, ...own, ...given };
}

/** Options that cannot work together, found when the service is created (not a request error). */
export class OptionsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OptionsError';
  }
}

/** The user's routes, checked and compiled; every problem named at once. */
function userRoutes(options: ServiceOptions): CompiledUserRoute[] {
  const { routes, problems } = compileUserRoutes((options.routes ?? []).map((route, index) => ({ route, at: `routes/${index}` })));
  if (problems.length > 0) throw new OptionsError(problems.map((problem) => `${problem.at} ${problem.message}`).join('; '));
  return routes;
}

/** The `ship` and `player` templates, compiled; every problem named at once. */
function resourceTemplates(options: ServiceOptions): ResourceTemplates {
  const { templates, problems } = compileResourceTemplates({ ship: options.ship, player: options.player });
  if (problems.length > 0) throw new OptionsError(problems.map((problem) => `${problem.at} ${problem.message}`).join('; '));
  return templates;
}

/** The variants a service starts with, from its `variants` option; an OptionsError naming a bad one. */
export function activeVariants(entries: readonly string[] | undefined): ActiveVariants {
  try {
    return ActiveVariants.from(entries);
  } catch (error) {
    throw error instanceof VariantError ? new OptionsError(`variants: ${error.message}`) : error;
  }
}

/** Partial public options become the complete configuration, once, at creation; only the user's routes change afterwards. */
export function resolveOptions(options: ServiceOptions): ResolvedOptions {
  const compiledRoutes = userRoutes(options);
  return {
    version: options.version ?? PACKAGE_VERSION,
    clock: options.clock ?? new VirtualClock(),
    gameOrigins: new Set(options.gameOrigins ?? []),
    corsOrigins: options.corsOrigins === undefined ? 'any' : new Set(options.corsOrigins),
    botCheck: options.botCheck ?? DEFAULT_BOT_CHECK,
    maxWrongOtpAttempts: options.maxWrongOtpAttempts ?? DEFAULT_MAX_WRONG_OTP_ATTEMPTS,
    actionPoints: { ...DEFAULT_ACTION_POINTS, ...options.actionPoints },
    actionCosts: actionCostsOf(compiledRoutes, options.actionCosts),
    userRoutes: compiledRoutes,
    strictAnswers: options.strictAnswers ?? false,
    resources: resourceTemplates(options),
    resourceTemplates: { ship: options.ship, player: options.player },
    bounds: { ...DEFAULT_BOUNDS, ...options.bounds },
    control: { enabled: options.control?.enabled ?? DEFAULT_CONTROL.enabled, public: options.control?.public ?? DEFAULT_CONTROL.public },
    world: options.world,
    journalSize: options.journalSize ?? DEFAULT_JOURNAL_SIZE,
    rateLimitWindows: options.rateLimitWindows ?? 'first-hit',
    storeEngine: options.storeEngine,
    onRequest: options.onRequest,
    onOtp: options.onOtp ?? ((delivery) => console.log(formatOtpLine(delivery))),
    onError: options.onError ?? ((error) => console.error('Unexpected error while handling a request:', error)),
    onStoreStatus: options.onStoreStatus,
  };
}
