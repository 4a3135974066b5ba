import { runConformance, type ConformanceOptions, type ConformanceResult } from '../../conformance/run/run.js';
import { withCapturedOutput, type CapturedOutput } from './captured-output.js';
import { startMutatingProxy, type ProxyBehaviour } from './mutating-proxy.js';

/** A run of the suite in this process, as `game-service check` makes it, with what it printed. */
export interface SuiteRun {
  result: ConformanceResult;
  /** The titles of the checks that failed. */
  failed: string[];
  /** `--seed N`, to replay the run. */
  replay: string;
  output: CapturedOutput;
}

/** How the suite must address a server that behaves so: the header it reads client addresses from, the ship payload it takes. */
export function targetOptionsFor({ target }: ProxyBehaviour): Pick<ConformanceOptions, 'forwardedFor' | 'clientIpHeader' | 'shipPayload'> {
  return {
    ...(target?.clientIpHeader === undefined ? { forwardedFor: true } : { clientIpHeader: target.clientIpHeader }),
    ...(target?.shipPayload === undefined ? {} : { shipPayload: target.shipPayload }),
  };
}

/** `runConformance` with its console output kept apart: the runner `check` calls, in this process. */
export async function runSuite(options: ConformanceOptions): Promise<SuiteRun> {
  const output: CapturedOutput = { stdout: '', stderr: '' };
  const result = await withCapturedOutput(output, () => runConformance(options));
  const failed = result.checks.filter((check) => check.state === 'failed').map((check) => check.title);
  return { result, failed, replay: `--seed ${result.seed}`, output };
}

/** The whole suite (or `options.only`) against a fresh mock behind a proxy that behaves as `behaviour` says. */
export async function runSuiteBehind(behaviour: ProxyBehaviour | undefined, options: Partial<ConformanceOptions> = {}): Promise<SuiteRun> {
  const proxy = await startMutatingProxy(behaviour);
  try {
    return await runSuite({ baseUrl: proxy.url, ...(behaviour === undefined ? { forwardedFor: true } : targetOptionsFor(behaviour)), ...options });
  } finally {
    await proxy.close();
  }
}

/** The end of a run's output and its error, for a failure message. */
export function describeRun({ result, output }: SuiteRun): string {
  return `exit ${result.exitCode}, ${result.passed} passed, ${result.failed} failed, ${result.skipped} skipped${result.error === undefined ? '' : `; error: ${result.error}`}\nstderr: ${output.stderr.slice(-2_000)}\nstdout (end): ${output.stdout.slice(-3_000)}`;
}
