import type { AddressInfo } from 'node:net';
import { VirtualClock } from '../core/clock.js';
import { DEFAULT_BOUNDS, DEFAULT_JOURNAL_SIZE, OptionsError, type ServiceOptions } from '../core/options.js';
import { openStore, probeStore, type OpenedStore } from './open-store.js';
import { isWorkerProcess, reportListening, runPrimary } from './workers.js';
import { createService, type Service } from '../core/service.js';
import { createNodeServer, shutDownNodeServer } from '../hosts/node-http.js';
import { CONTROL_PREFIX } from '../spec/control-routes.js';
import { CliError } from './cli-error.js';
import { watchConfigRoutes } from './config-watch.js';
import { hostAndPort, listenError } from './listen-errors.js';
import { definedOnly } from './defined-only.js';
import { createLogger, type MockLogger, type StartupInfo } from './logger.js';
import { OPTION_SETTINGS, type MockOptions, type StartOptions, withDefaults } from './setting-forms.js';
import { PACKAGE_VERSION } from '../version.js';
import { firstStopSignal, type StopSignals } from './stop-signals.js';

export interface RunningMock {
  /** The base URL clients use, with the port actually bound (loopback when bound to every interface). */
  url: string;
  /** The address and port the server is bound to, as `0.0.0.0:8080` or `[::]:8080`. */
  address: string;
  service: Service;
  logger: MockLogger;
  /** Where its state is kept, as the banner says it. */
  store: string;
  close(): Promise<void>;
}

const SHUTDOWN_GRACE_MS = 5_000;

/** Where clients reach the mock: a wildcard address is no destination, so its loopback stands in for it. */
function baseUrl(address: AddressInfo): string {
  const reachable = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
  return `http://${address.family === 'IPv6' ? `[${reachable}]` : reachable}:${address.port}`;
}

function boundAddress(address: AddressInfo): string {
  return hostAndPort(address.address, address.port);
}

/** Every answered request to the log (--verbose) and to a shared journal; nothing at all when neither wants it. */
function requestListener(options: MockOptions, logger: MockLogger, store: OpenedStore): Pick<ServiceOptions, 'onRequest'> {
  const shared = store.onRequest;
  if (options.verbose !== true) return shared === undefined ? {} : { onRequest: shared };
  return {
    onRequest:
      shared === undefined
        ? (entry) => logger.request(entry)
        : (entry) => {
            shared(entry);
            logger.request(entry);
          },
  };
}

/** The options the service takes as they are (OptionDeclaration.toService). */
const SERVICE_OPTION_NAMES = OPTION_SETTINGS.filter(({ option }) => option.toService).map(({ optionName }) => optionName);

/** The service options of a mock's settings, without a host's store and logger: what loadMockConfig gives msw. */
export function settingsServiceOptions(options: MockOptions): ServiceOptions {
  const given: Readonly<Record<string, unknown>> = options;
  const passed = Object.fromEntries(SERVICE_OPTION_NAMES.flatMap((name) => (given[name] === undefined ? [] : [[name, given[name]]])));
  return {
    version: PACKAGE_VERSION,
    clock: new VirtualClock({ frozen: options.freezeClock === true }),
    // Each is declared in the settings with the type the service gives the option of the same name.
    ...(passed as Partial<ServiceOptions>),
    control: definedOnly({ enabled: options.control, public: options.controlPublic }),
  };
}

function serviceOptions(options: MockOptions, logger: MockLogger, store: OpenedStore): ServiceOptions {
  return {
    ...settingsServiceOptions(options),
    ...(store.engine === undefined ? {} : { storeEngine: store.engine }),
    ...requestListener(options, logger, store),
    onOtp: (delivery) => logger.otp(delivery),
    onError: (error) => logger.error(error),
    onStoreStatus: (status) => logger.store(status),
  };
}

/** The service, or a configuration error (exit 2) for options that cannot work together: never a stack trace. */
function createConfiguredService(options: MockOptions, logger: MockLogger, store: OpenedStore): Service {
  try {
    return createService(serviceOptions(options, logger, store));
  } catch (error) {
    if (error instanceof OptionsError) throw new CliError('GS_CONFIG', `cannot start the mock: ${error.message}`);
    throw error;
  }
}

/** Starts the standalone mock: the service on the node:http host. The CLI and library users call this. */
export async function startMock(given: MockOptions): Promise<RunningMock> {
  const options = withDefaults(given);
  const logger = options.logger ?? createLogger(options.logFormat);
  const store = await openStore(options, { outboxSize: DEFAULT_BOUNDS.outboxSize, journalSize: options.journalSize ?? DEFAULT_JOURNAL_SIZE });
  let service: Service;
  try {
    service = createConfiguredService(options, logger, store);
    await store.started(service);
  } catch (error) {
    await store.close();
    throw error;
  }
  const server = createNodeServer(service, { trustProxy: options.trustProxy });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(listenError('the mock', error, options.host, options.port)));
    server.listen(options.port, options.host, () => resolve());
  }).catch(async (error: unknown) => {
    await store.close();
    throw error;
  });
  const address = server.address() as AddressInfo;
  const stopWatching = options.watchConfig === undefined ? undefined : watchConfigRoutes(options.watchConfig, service, logger);
  const close = async () => {
    stopWatching?.();
    await shutDownNodeServer(server, SHUTDOWN_GRACE_MS);
    await store.close();
  };
  return { url: baseUrl(address), address: boundAddress(address), service, logger, store: store.description, close };
}

function startupInfo(mock: RunningMock, options: StartOptions): StartupInfo {
  const { botCheck } = options;
  return {
    version: PACKAGE_VERSION,
    url: mock.url,
    address: mock.address,
    gameOrigins: options.gameOrigins,
    corsOrigins: options.corsOrigins ?? 'any',
    trustProxy: options.trustProxy,
    control: {
      enabled: options.control,
      public: options.controlPublic,
      url: `${mock.url}${CONTROL_PREFIX}`,
    },
    clock: { frozen: options.freezeClock, now: new Date(mock.service.clock.now()).toISOString() },
    world: options.world === undefined ? undefined : { players: options.world.players.length, source: options.worldSource ?? '(given)' },
    botCheck: botCheck.mode === 'tokens' ? `tokens (${botCheck.tokens.length} accepted)` : botCheck.mode,
    variants: mock.service.variants.selection,
    faults: { rules: mock.service.faults.rules.map((rule) => rule.text), seed: mock.service.faults.seed },
    store: mock.store,
  };
}

/** `game-service mock`: start, say where, and stop cleanly on SIGINT or SIGTERM; with --workers, as N processes. */
export async function runMockCommand(given: MockOptions, signals: StopSignals = process): Promise<void> {
  const options = withDefaults(given);
  const { workers } = options;
  if (workers > 1 && !isWorkerProcess()) {
    await probeStore(options);
    return runPrimary(options, workers, signals);
  }
  const mock = await startMock(options);
  if (workers > 1) reportListening(startupInfo(mock, options));
  else mock.logger.listening(startupInfo(mock, options));
  const signal = await firstStopSignal(signals);
  if (workers === 1) mock.logger.stopping(signal);
  await mock.close();
  // A worker's channel to the primary would keep it alive.
  if (workers > 1) process.disconnect?.();
}
