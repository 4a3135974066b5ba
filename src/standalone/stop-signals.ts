/** The signals that end a long-running command: Ctrl+C and a service manager's stop. */
export type StopSignal = 'SIGINT' | 'SIGTERM';

/**
 * Where a command hears them: the process itself, or an emitter standing in for it where the CLI runs inside
 * another program (the project's tests run every command in their own process this way).
 */
export interface StopSignals {
  on(signal: StopSignal, listener: () => void): unknown;
  once(signal: StopSignal, listener: () => void): unknown;
  off(signal: StopSignal, listener: () => void): unknown;
}

/** Resolves with the first of the two signals to arrive, and stops listening for the other. */
export function firstStopSignal(signals: StopSignals): Promise<StopSignal> {
  return new Promise((resolve) => {
    const onInt = () => done('SIGINT');
    const onTerm = () => done('SIGTERM');
    const done = (signal: StopSignal) => {
      signals.off('SIGINT', onInt);
      signals.off('SIGTERM', onTerm);
      resolve(signal);
    };
    signals.on('SIGINT', onInt);
    signals.on('SIGTERM', onTerm);
  });
}
