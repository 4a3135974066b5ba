import { RunStop, STOP_EXIT_CODES, type StopSignalName } from '../../conformance/common/run-stop.js';
import type { StopSignals } from '../standalone/stop-signals.js';

/**
 * SIGINT and SIGTERM during `check` or `fuzz`: the first stops the run, which stops sending, puts the target back
 * as it found it, prints what it has and writes its reports; a second ends the process at once, saying what it
 * leaves on the target. `release` removes the handlers once the run is over.
 */
export function catchInterrupts(command: string, signals: StopSignals): { stop: RunStop; release: () => void } {
  const stop = new RunStop();
  const onSignal = (signal: StopSignalName) => {
    if (stop.reason === undefined) {
      stop.stop(signal);
      console.error(`\ngame-service ${command}: ${signal}: stopping; putting the target back as the run found it (${signal} again to exit at once)`);
      return;
    }
    const left = stop.pendingRestore();
    console.error(
      `game-service ${command}: ${signal} again: exiting at once. ${left === undefined ? 'Nothing of the run is left on the target.' : `Left on the target: ${left}.`}`,
    );
    process.exit(STOP_EXIT_CODES[signal]);
  };
  const onInt = () => onSignal('SIGINT');
  const onTerm = () => onSignal('SIGTERM');
  signals.on('SIGINT', onInt);
  signals.on('SIGTERM', onTerm);
  return {
    stop,
    release: () => {
      signals.off('SIGINT', onInt);
      signals.off('SIGTERM', onTerm);
    },
  };
}
