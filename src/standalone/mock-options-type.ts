import type { ActionPointRules } from '../core/action-points.js';
import type { BotCheck } from '../core/bot-check.js';
import type { FaultRuleJson } from '../core/fault-rules.js';
import type { UserRoute } from '../core/user-routes/user-route.js';
import type { World } from '../core/world.js';
import type { LogFormat, MockLogger } from './logger.js';

/** The settings of one standalone mock, as flags, a config file and the environment resolve them. */
export interface MockOptions {
  port: number;
  host: string;
  gameOrigins: readonly string[];
  /** Page origins CORS lets read the API, besides the game origins; default any origin. */
  corsOrigins?: readonly string[];
  trustProxy: boolean;
  /** Serve the control API (under CONTROL_PREFIX); default true. */
  control?: boolean;
  /** Answer the control API from non-loopback clients too; default false. */
  controlPublic?: boolean;
  /** Start the virtual clock frozen; default false. */
  freezeClock?: boolean;
  /** Players to start with. */
  world?: World;
  /** Where the world came from (a file name), for messages and the banner. */
  worldSource?: string;
  /** Default off. */
  botCheck?: BotCheck;
  /** Wrong codes after which the pending code is void; 0 = unlimited; default 5. */
  maxWrongOtpAttempts?: number;
  actionPoints?: Partial<ActionPointRules>;
  /** Action-point cost by gameplay route id. */
  actionCosts?: Readonly<Record<string, number>>;
  /** Routes of your own (docs/routes.md), their handlers loaded. */
  routes?: readonly UserRoute[];
  /** Fields of each new ship, as templates (docs/routes.md). */
  ship?: Readonly<Record<string, unknown>>;
  /** Fields of each new player, as templates (docs/routes.md). */
  player?: Readonly<Record<string, unknown>>;
  /** Requests remembered for GET /__mock/journal; default 500. */
  journalSize?: number;
  /** Legal variations to play where the spec is silent: names, all, random[:SEED], public-deployment. */
  variants?: readonly string[];
  /** Fault rules in force from the start (docs/faults.md). */
  faults?: readonly (FaultRuleJson | string)[];
  /** Seed of the fault draws; default random, printed in the banner. */
  faultSeed?: number;
  /** An SQLite state file to keep state in across restarts; default none (memory). */
  state?: string;
  /** A Redis server many processes share, redis://HOST:PORT[/DB]; default none (memory). */
  store?: string;
  /** Prefix of the keys on the shared store. */
  storePrefix?: string;
  /** Processes serving the port; default 1. */
  workers?: number;
  /** Default text. */
  logFormat?: LogFormat;
  /** Log every request; default false. */
  verbose?: boolean;
  /** Where codes, requests and errors go; by default a logger of `logFormat` on stdout and stderr. */
  logger?: MockLogger;
}
