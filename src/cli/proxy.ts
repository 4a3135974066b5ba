import { writeFile } from 'node:fs/promises';
import { counted } from '../../conformance/common/counted.js';
import { type HarOutput, HarRecorder } from '../../conformance/report/har.js';
import type { LiveFinding } from '../../conformance/rules/session/live-finding.js';
import type { FindingsLog } from '../../conformance/proxy/findings-log.js';
import { PROXY_PREFIX } from '../../conformance/proxy/findings-page.js';
import { proxyJsonReport, proxyJunitReport, type ProxySession } from '../../conformance/proxy/proxy-reports.js';
import { type RunningProxy, startProxy } from '../../conformance/proxy/proxy-server.js';
import { RECORDED_EXCHANGES } from '../../conformance/proxy/judged-traffic.js';
import { recordRoutes, writeRecordedRoutes } from '../../conformance/proxy/record-routes.js';
import { isControlPath } from '../spec/control-routes.js';
import { PACKAGE_VERSION } from '../version.js';
import { CliError, EXIT_CODES } from '../standalone/cli-error.js';
import { listenError } from '../standalone/listen-errors.js';
import { firstStopSignal, type StopSignals } from '../standalone/stop-signals.js';
import { repeatedRoutePrefix } from './base-url-path.js';
import { targetSilence } from './target-probe.js';
import { type FailOn, PROXY_DEFAULTS } from './proxy-settings.js';

/** The settings of `game-service proxy` (proxy-settings.ts), under their flags' names. */
export interface ProxyCommandOptions {
  target: string;
  keepBasePath?: boolean;
  port?: number;
  host?: string;
  gameOrigin?: readonly string[];
  clientIpHeader?: string;
  failOn?: FailOn;
  json?: string;
  junit?: string;
  har?: HarOutput;
  record?: string;
}

function findingLine(finding: LiveFinding): string {
  const { exchange } = finding;
  const path = new URL(exchange.url).pathname;
  return `${finding.side} ${finding.rule}: ${finding.message} (${exchange.method} ${path} → ${exchange.status})`;
}

function summary(log: FindingsLog): string[] {
  const lines = [
    `${counted(log.exchangeCount, 'exchange')}, ${counted(log.count('server'), 'server finding')}, ${counted(log.count('client'), 'client finding')}`,
  ];
  for (const each of log.unjudged()) lines.push(`  ${counted(each.count, 'exchange')} passed on unjudged: a body ${each.reason}`);
  for (const each of log.byRule()) lines.push(`  ${String(each.count).padStart(5)}  ${each.side} ${each.rule} «${each.sentence}»`);
  return lines;
}

function exitCodeFor(log: FindingsLog, failOn: FailOn): number {
  const found = failOn === 'none' ? 0 : failOn === 'any' ? log.findingCount : log.count(failOn);
  return found > 0 ? EXIT_CODES.checkFailed : EXIT_CODES.success;
}

async function writeReports(options: ProxyCommandOptions, log: FindingsLog, session: ProxySession): Promise<void> {
  if (options.json !== undefined) await writeFile(options.json, proxyJsonReport(log, session));
  if (options.junit !== undefined) await writeFile(options.junit, proxyJunitReport(log, session));
  if (options.har !== undefined) {
    const har = new HarRecorder();
    for (const { exchange } of log.maskedExchanges()) har.record(exchange, isControlPath(new URL(exchange.url).pathname));
    await har.write(options.har);
  }
}

/** `--record FILE`: the routes beyond the spec's table as mock routes, and what was left out, grouped by why. */
async function writeRecording(file: string, proxy: RunningProxy): Promise<void> {
  const { config, skipped, notes } = recordRoutes(proxy.apiExchanges);
  await writeRecordedRoutes(file, config);
  const templates = (['ship', 'player'] as const).filter((kind) => config[kind] !== undefined).map((kind) => `a ${kind} template`);
  console.log(`Recorded ${[counted(config.routes.length, 'route'), ...templates].join(', ')} to ${file}: game-service mock --config ${file} serves them.`);
  if (config.session !== undefined)
    console.log(
      `  and the client's session, ${counted(config.session.length, 'request')} in order: game-service check --base-url URL --recording ${file} checks a deployment against it.`,
    );
  if (proxy.droppedApiExchanges > 0)
    console.log(
      `  (the oldest ${counted(proxy.droppedApiExchanges, 'exchange')} let go: only the latest ${RECORDED_EXCHANGES}, and 128 MiB of their bodies, are kept)`,
    );
  for (const note of notes) console.log(`  note: ${note}`);
  const reasons = Map.groupBy(skipped, (each) => each.reason);
  for (const [reason, each] of reasons) console.log(`  skipped ${each.length}: ${reason}`);
}

/** Says whether the target answers, and where the findings go. */
async function probeTarget(target: string, proxyUrl: string): Promise<void> {
  const silence = await targetSilence(target);
  if (silence !== undefined) console.error(`game-service proxy: ${silence}`);
  console.log(`Findings: one line each below, and on ${proxyUrl}${PROXY_PREFIX}/ui. Ctrl+C ends the run with a summary.`);
}

/** `game-service proxy`: forward and judge until SIGINT or SIGTERM, then summarise, write the reports, and exit by --fail-on. */
export async function runProxyCommand(options: ProxyCommandOptions, signals: StopSignals = process): Promise<number> {
  // A target ending in /api would forward every request to /api/api/…, unless its routes really are under it twice.
  const mistake = options.keepBasePath === true ? undefined : repeatedRoutePrefix(options.target, '--target');
  if (mistake !== undefined) throw new CliError('GS_USAGE', mistake);
  const startedAt = Date.now();
  // Listened for from the start: a Ctrl+C while the target is probed still ends the run with its summary and reports.
  const stopped = firstStopSignal(signals);
  let proxy: RunningProxy;
  try {
    proxy = await startProxy({
      target: new URL(options.target),
      port: options.port ?? PROXY_DEFAULTS.port,
      host: options.host ?? PROXY_DEFAULTS.host,
      gameOrigins: options.gameOrigin ?? [],
      clientIpHeader: options.clientIpHeader,
      onFinding: (finding) => console.log(findingLine(finding)),
      keepApiExchanges: options.record !== undefined,
    });
  } catch (error) {
    throw listenError('the proxy', error as NodeJS.ErrnoException, options.host ?? PROXY_DEFAULTS.host, options.port ?? PROXY_DEFAULTS.port);
  }
  console.log(`game-service proxy ${PACKAGE_VERSION} listening on ${proxy.url}, forwarding to ${options.target}`);
  const signal = await Promise.race([stopped, probeTarget(options.target, proxy.url).then(() => stopped)]);
  await proxy.close();
  const exitCode = exitCodeFor(proxy.log, options.failOn ?? PROXY_DEFAULTS.failOn);
  console.log(`\n${signal}: stopped.`);
  for (const line of summary(proxy.log)) console.log(line);
  await writeReports(options, proxy.log, { target: options.target, startedAt, endedAt: Date.now(), exitCode });
  if (options.record !== undefined) await writeRecording(options.record, proxy);
  return exitCode;
}
