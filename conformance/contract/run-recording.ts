import type { RecordedRequest } from '../../src/spec/recorded-session.js';
import { counted } from '../common/counted.js';
import type { Exchange } from '../common/exchange.js';
import { type RunStop, STOP_EXIT_CODES, type StopSignalName } from '../common/run-stop.js';
import { createOtpSource } from '../otp/index.js';
import { type HarOutput, HarRecorder } from '../report/har.js';
import type { RuleId } from '../rules/index.js';
import { cannotSignIn } from '../fixtures/accounts.js';
import { notice } from '../target/pacing.js';
import { Target } from '../target/target.js';
import { checkTargetOptions, resolveTargetConfig, type TargetOptions } from '../target/target-options.js';
import { preserveTargetState, type TargetAftermath } from '../target/target-state.js';
import { type Drift, driftsOf } from './drift.js';
import { RecordedState } from './recorded-state.js';
import { readRecording } from './read-recording.js';
import { RunPlayers } from './run-players.js';
import { bodyToSend, headersToSend, MissingValue, pathToSend, type RunValues, sentValues } from './session-values.js';
import { runStateCommand } from './state-command.js';

export interface RecordingOptions extends TargetOptions {
  /** The recorded config (`proxy --record`) whose session is sent again. */
  recording: string;
  /** Run at `before-run` and `player-made`, to set up the state the recording depended on. */
  stateCommand?: string;
  /** Also write every exchange of the run as HAR 1.2, a page per recorded request. */
  har?: HarOutput;
  seed?: number;
  stop?: RunStop;
}

/** What one recorded route showed: its requests sent, and each finding once. */
export interface RouteVerdict {
  route: string;
  sent: number;
  drifts: Drift[];
  /** Answers that differ only where the recording depended on state the run did not set up. */
  state: string[];
  /** Requests not sent, each with why (a value an earlier answer did not give). */
  notSent: string[];
}

/** A departure from the spec's rules on one of the spec's own routes, as any check run judges it. */
export interface RuleFinding {
  rule: RuleId;
  message: string;
  route: string;
}

export interface RecordingResult extends Partial<TargetAftermath> {
  exitCode: 0 | 1 | 2 | (typeof STOP_EXIT_CODES)[StopSignalName];
  seed: number;
  recording: string;
  target: string;
  requests: number;
  sent: number;
  routes: RouteVerdict[];
  rules: RuleFinding[];
  durationMs: number;
  error?: string;
  interrupted?: StopSignalName;
}

const PROGRESS_MS = 5_000;

/** A drift of a route reported once, however often the session sent it. */
const driftKey = (drift: Drift) => `${drift.where} ${drift.recorded} ${drift.now}`;

/**
 * Sends a recording's session again to a deployment, as a player made for the run, and compares each answer with
 * the recorded one by shape (drift.ts); the spec's own routes are judged by the rules, as in any check run.
 */
export async function runRecording(options: RecordingOptions): Promise<RecordingResult> {
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const startedAt = Date.now();
  const base = { seed, recording: options.recording, target: options.baseUrl, sent: 0, routes: [], rules: [] };
  let requests: RecordedRequest[];
  let target: Target;
  let restore: Awaited<ReturnType<typeof preserveTargetState>>;
  const { stop } = options;
  try {
    checkTargetOptions(options);
    requests = await readRecording(options.recording);
    const config = await resolveTargetConfig(options, seed);
    restore = await preserveTargetState(config.baseUrl, config.capabilities, config, stop, options.keepJournal);
    target = new Target(config);
    target.stopSignal = stop?.signal;
    if (options.har !== undefined) target.har = new HarRecorder();
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    return { ...base, exitCode: 2, requests: 0, durationMs: Date.now() - startedAt, error: error.message };
  }
  const routes = new Map<string, RouteVerdict>();
  const verdictOf = (route: string) => {
    const verdict = routes.get(route) ?? { route, sent: 0, drifts: [], state: [], notSent: [] };
    routes.set(route, verdict);
    return verdict;
  };
  for (const request of requests) verdictOf(request.route);
  const exchangeRoutes = new Map<Exchange, string>();
  let sent = 0;
  let error: string | undefined;
  try {
    const otp = target.config.otpSource === null ? null : createOtpSource(target.config.otpSource, target);
    const cannot = cannotSignIn({ config: target.config, otp });
    if (cannot !== undefined) throw new Error(cannot);
    if (options.stateCommand !== undefined) await runStateCommand(options.stateCommand, { point: 'before-run', baseUrl: target.config.baseUrl });
    const players = new RunPlayers({ config: target.config, target, otp }, options.stateCommand);
    // The first player is made before the first request, as the recorded client signed in first.
    await players.player(0);
    const state = new RecordedState(requests);
    const answers = new Map<number, unknown>();
    let lastProgress = Date.now();
    for (const [index, request] of requests.entries()) {
      stop?.signal.throwIfAborted();
      const verdict = verdictOf(request.route);
      target.har?.startPage(`request ${index + 1}: ${request.method} ${request.path}`);
      const player = await players.player(request.player ?? 0);
      const values: RunValues = { email: player.email, token: player.token, answers, sameRequests: (each) => state.sameRequests(each) };
      let path: string;
      let body: unknown;
      let headers: Record<string, string>;
      try {
        path = pathToSend(request, values);
        body = request.body === undefined ? undefined : bodyToSend(request.body, values);
        headers = headersToSend(request, values);
      } catch (missing) {
        if (!(missing instanceof MissingValue)) throw missing;
        verdict.notSent.push(`request ${index + 1} (${request.method} ${request.path}): ${missing.message}`);
        continue;
      }
      const exchange = await target.send({
        method: request.method,
        path,
        ...(request.auth === true ? { token: player.token } : {}),
        ...(body === undefined ? {} : { json: body }),
        headers,
      });
      exchangeRoutes.set(exchange, request.route);
      sent++;
      verdict.sent++;
      answers.set(index, exchange.body);
      if (exchange.status === 429 && request.status !== 429) {
        verdict.notSent.push(`request ${index + 1}: still answered 429 after the waits --max-wait allows, so not compared`);
        continue;
      }
      const dependence = state.explain(index, exchange.status);
      if (dependence !== undefined) {
        verdict.state.push(dependence);
        continue;
      }
      const known = new Set(verdict.drifts.map(driftKey));
      for (const drift of driftsOf(request, exchange, sentValues(request.route, path, body))) if (!known.has(driftKey(drift))) verdict.drifts.push(drift);
      if (Date.now() - lastProgress >= PROGRESS_MS) {
        lastProgress = Date.now();
        notice(`sent ${sent} of ${counted(requests.length, 'request')}`);
      }
    }
  } catch (failure) {
    if (stop?.reason === undefined) error = failure instanceof Error ? failure.message : String(failure);
  }
  const { restored, left } = await restore(new Set(target.registeredEmails));
  if (options.har !== undefined) await target.har?.write(options.har, stop?.reason !== undefined ? `interrupted (${stop.reason})` : error);
  const rules = target.session.departures().map((finding) => ({
    rule: finding.rule as RuleId,
    message: finding.message,
    route: exchangeRoutes.get(finding.exchange) ?? `${finding.exchange.method} ${new URL(finding.exchange.url).pathname}`,
  }));
  const verdicts = [...routes.values()];
  const failed = verdicts.some((verdict) => verdict.drifts.length > 0) || rules.length > 0;
  const interrupted = stop?.reason;
  const exitCode = interrupted !== undefined ? STOP_EXIT_CODES[interrupted] : error !== undefined ? 2 : failed ? 1 : 0;
  return {
    ...base,
    exitCode,
    requests: requests.length,
    sent,
    routes: verdicts,
    rules,
    durationMs: Date.now() - startedAt,
    ...(restored === undefined ? {} : { restored }),
    ...(left === undefined ? {} : { left }),
    ...(error === undefined ? {} : { error }),
    ...(interrupted === undefined ? {} : { interrupted }),
  };
}
