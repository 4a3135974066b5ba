import { format } from 'node:util';
import { pino, stdSerializers, type DestinationStream } from 'pino';
import type { JournalEntry } from '../core/journal.js';
import type { StoreStatusListener } from '../core/store-engine.js';
import type { VariantSelection } from '../core/variant-choice.js';
import { formatOtpLine, type OtpDelivery } from '../core/options.js';

export type LogFormat = 'text' | 'json';

/** What the mock reports once it listens. */
export interface StartupInfo {
  version: string;
  url: string;
  /** The address and port bound, which differ from the URL's when bound to every interface. */
  address: string;
  gameOrigins: readonly string[];
  /** Page origins CORS lets read the API besides the game origins, or any. */
  corsOrigins: readonly string[] | 'any';
  trustProxy: boolean;
  control: { enabled: boolean; public: boolean; url: string };
  clock: { frozen: boolean; now: string };
  world: { players: number; source: string } | undefined;
  botCheck: string;
  /** The legal variations played where the spec is silent, and the seed that drew them. */
  variants: VariantSelection;
  /** The fault rules in force at start (in the --fault syntax) and the seed of their draws. */
  faults: { rules: readonly string[]; seed: number };
  /** Where state is kept: memory, a state file, or a shared store. */
  store: string;
}

/** Everything the mock tells the person or the log collector running it. */
export interface MockLogger {
  listening(info: StartupInfo): void;
  otp(delivery: OtpDelivery): void;
  request(entry: JournalEntry): void;
  /** An unexpected exception while handling a request (answered with a 500). */
  error(error: unknown): void;
  /** The store became unreachable (requests answer 503), or is back. */
  store(status: Parameters<StoreStatusListener>[0]): void;
  stopping(signal: string): void;
  /** `--watch` read the --config file again: the routes it serves now, or the problems for which the running ones stay (a logger of your own may leave it out). */
  reloaded?(outcome: ConfigReload): void;
}

export type ConfigReload = { file: string; routes: number } | { file: string; problems: string };

function reloadLine(outcome: ConfigReload): string {
  return 'routes' in outcome
    ? `Reloaded --config ${outcome.file}: ${outcome.routes} route${outcome.routes === 1 ? '' : 's'} of your own served from now on`
    : `Not reloaded: --config ${outcome.file} has problems; the running routes stay. ${outcome.problems}`;
}

export interface LogStreams {
  stdout: DestinationStream;
  stderr: DestinationStream;
}

const STDIO: LogStreams = { stdout: process.stdout, stderr: process.stderr };

const UNEXPECTED = 'Unexpected error while handling a request';
const STORE_DOWN = 'The store cannot be reached: requests are answered 503 until it is back';
const STORE_BACK = 'The store is reachable again: requests are served';

function describeVariants({ names, seed }: VariantSelection): string {
  const drawn = seed === undefined ? '' : ` (random, seed ${seed}: --variant random:${seed} plays them again)`;
  return names.length === 0 ? `none: the choices of docs/spec-silent.md${drawn}` : `${names.join(', ')}${drawn}`;
}

/** Readable lines for a person; the first banner line and the OTP line are parsed by scripts, so they never change. */
export function createTextLogger(streams: LogStreams = STDIO): MockLogger {
  const out = (line: string) => streams.stdout.write(`${line}\n`);
  return {
    listening(info) {
      const control = info.control.enabled ? `${info.control.url} (${info.control.public ? 'any client, --control-public' : 'loopback clients only'})` : 'off';
      out(`Game Service mock ${info.version} listening on ${info.url}`);
      out(`  bound to:     ${info.address}`);
      out(`  game origins: ${info.gameOrigins.length > 0 ? info.gameOrigins.join(', ') : '(none)'}`);
      out(`  CORS:         ${info.corsOrigins === 'any' ? 'any origin (--cors-origin restricts it)' : [...info.gameOrigins, ...info.corsOrigins].join(', ')}`);
      out(`  client IP:    ${info.trustProxy ? 'first X-Forwarded-For hop (--trust-proxy)' : 'TCP peer address'}`);
      out(`  control API:  ${control}`);
      out(`  clock:        ${info.clock.frozen ? `frozen at ${info.clock.now}` : 'running'}`);
      out(
        `  world:        ${info.world === undefined ? '(none)' : `${info.world.players} player${info.world.players === 1 ? '' : 's'} from ${info.world.source}`}`,
      );
      out(`  bot check:    ${info.botCheck}`);
      out(`  variants:     ${describeVariants(info.variants)}`);
      out(`  faults:       ${info.faults.rules.length > 0 ? info.faults.rules.join('; ') : '(none)'}`);
      out(`  fault seed:   ${info.faults.seed} (--fault-seed ${info.faults.seed} replays the same draws)`);
      out(`  state:        ${info.store}`);
      out('  Verification codes are printed here. Press Ctrl+C to stop.');
    },
    otp: (delivery) => out(formatOtpLine(delivery)),
    request: (entry) =>
      out(
        `${entry.method} ${entry.path} ${entry.status} ${entry.category ?? '-'} ${entry.ip}` +
          `${entry.fault === null ? '' : ` fault: ${entry.fault.join(', ')}`}${entry.unknownFields === null ? '' : ` unknown fields: ${entry.unknownFields.join(', ')}`}`,
      ),
    error: (error) => streams.stderr.write(`${format(`${UNEXPECTED}:`, error)}\n`),
    store: (status) => streams.stderr.write(`${status.available ? STORE_BACK : `${STORE_DOWN} (${status.reason})`}\n`),
    stopping: (signal) => out(`${signal} received: closing connections and stopping.`),
    reloaded: (outcome) => ('routes' in outcome ? out(reloadLine(outcome)) : streams.stderr.write(`${reloadLine(outcome)}\n`)),
  };
}

/**
 * One JSON object per line on stdout, each with an `event` field, for log collectors. Written through
 * process.stdout, as the text lines are (synchronous for files and pipes on Linux), so that a program running
 * the CLI in its own process sees both the same way.
 */
export function createJsonLogger(stdout: DestinationStream = STDIO.stdout): MockLogger {
  const log = pino(
    {
      base: null,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: stdSerializers.err },
    },
    stdout,
  );
  return {
    listening: (info) =>
      log.info(
        { event: 'listening', ...info, control: { ...info.control, url: info.control.enabled ? info.control.url : null }, world: info.world ?? null },
        `Game Service mock ${info.version} listening on ${info.url}`,
      ),
    otp: (delivery) =>
      log.info(
        {
          event: 'otp',
          email: delivery.email,
          code: delivery.code,
          issuedAt: new Date(delivery.issuedAt).toISOString(),
          expiresAt: new Date(delivery.expiresAt).toISOString(),
        },
        `OTP for ${delivery.email}`,
      ),
    // A request's headers and body stay in the journal: a log line a request stays short.
    request: ({ requestHeaders, requestBody, ...entry }) => log.info({ event: 'request', ...entry }, `${entry.method} ${entry.path} ${entry.status}`),
    error: (error) => log.error({ event: 'error', err: error }, UNEXPECTED),
    store: (status) =>
      status.available
        ? log.info({ event: 'store', available: true }, STORE_BACK)
        : log.error({ event: 'store', available: false, reason: status.reason }, STORE_DOWN),
    stopping: (signal) => log.info({ event: 'stopping', signal }, `${signal} received: closing connections and stopping.`),
    reloaded: (outcome) =>
      'routes' in outcome
        ? log.info({ event: 'reloaded', file: outcome.file, routes: outcome.routes }, reloadLine(outcome))
        : log.error({ event: 'reload-refused', file: outcome.file, problems: outcome.problems }, reloadLine(outcome)),
  };
}

export function createLogger(logFormat: LogFormat): MockLogger {
  return logFormat === 'json' ? createJsonLogger() : createTextLogger();
}
