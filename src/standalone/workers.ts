import cluster, { type Worker } from 'node:cluster';
import { CliError } from './cli-error.js';
import { createLogger, type StartupInfo } from './logger.js';
import type { StartOptions } from './setting-forms.js';
import { firstStopSignal, type StopSignals } from './stop-signals.js';

/** What a worker tells the primary once it listens. */
interface ListeningMessage {
  type: 'listening';
  info: StartupInfo;
}

const isListening = (message: unknown): message is ListeningMessage => (message as ListeningMessage | undefined)?.type === 'listening';

/** Tells the primary this worker listens; the primary prints the one banner. */
export function reportListening(info: StartupInfo): void {
  process.send?.({ type: 'listening', info } satisfies ListeningMessage);
}

function stopAll(workers: Iterable<Worker>): Promise<void> {
  return Promise.all(
    [...workers].map(
      (worker) =>
        new Promise<void>((resolve) => {
          if (worker.isDead()) return resolve();
          worker.once('exit', () => resolve());
          worker.process.kill('SIGTERM');
        }),
    ),
  ).then(() => {});
}

/**
 * `--workers N`: N processes on one port (node:cluster shares the listening socket). Each runs the whole
 * mock on the shared store; the primary prints one banner, replaces a worker that dies, and stops them all
 * on SIGINT or SIGTERM. A worker that cannot start fails the command with its exit code.
 */
export async function runPrimary(options: StartOptions, workerCount: number, signals: StopSignals): Promise<void> {
  const logger = createLogger(options.logFormat);
  const workers = new Set<Worker>();
  let stopping = false;
  let listening = 0;
  await new Promise<void>((resolve, reject) => {
    const fork = () => {
      const worker = cluster.fork();
      workers.add(worker);
      worker.on('message', (message: unknown) => {
        if (!isListening(message) || ++listening !== workerCount) return;
        logger.listening({ ...message.info, store: `${message.info.store}, ${workerCount} workers` });
        resolve();
      });
      worker.once('exit', (code, signal) => {
        workers.delete(worker);
        if (stopping) return;
        if (listening < workerCount) {
          stopping = true;
          void stopAll(workers).then(() =>
            reject(new CliError('GS_LISTEN', `cannot start the mock: a worker exited (${signal ?? `code ${code}`}) before listening`, code ?? 2)),
          );
          return;
        }
        console.error(`game-service: a worker exited (${signal ?? `code ${code}`}); starting another`);
        fork();
      });
    };
    for (let index = 0; index < workerCount; index++) fork();
  });
  const signal = await firstStopSignal(signals);
  stopping = true;
  logger.stopping(signal);
  await stopAll(workers);
}

export const isWorkerProcess = (): boolean => cluster.isWorker;
