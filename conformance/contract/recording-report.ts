import { counted } from '../common/counted.js';
import { junitXml, RUN_TESTCASE, type JunitTestcase } from '../report/junit.js';
import type { Drift } from './drift.js';
import type { RecordingResult, RouteVerdict } from './run-recording.js';

/** A drift as one line a client developer acts on: `GET /api/galaxy/:id/sector /sector/port_class: number → string`. */
export const driftLine = (route: string, drift: Drift) => `${route} ${drift.where}: ${drift.recorded} → ${drift.now}`;

const routeState = (verdict: RouteVerdict) =>
  verdict.drifts.length > 0 ? 'drifted' : verdict.sent === 0 ? 'not sent' : verdict.state.length > 0 ? 'depends on state' : 'as recorded';

/** The console's lines after the run: each route, each drift, what depended on state, the rules' departures, the totals. */
export function recordingLines(result: RecordingResult): string[] {
  const lines = [''];
  for (const verdict of result.routes) {
    const mark = verdict.drifts.length > 0 ? '✗' : verdict.sent === 0 || verdict.state.length > 0 ? '-' : '✓';
    lines.push(`  ${mark} ${verdict.route} (${counted(verdict.sent, 'request')}): ${routeState(verdict)}`);
  }
  const drifts = result.routes.flatMap((verdict) => verdict.drifts.map((drift) => driftLine(verdict.route, drift)));
  if (drifts.length > 0) lines.push('', 'Drift (the target departs from what the recorded client read):', ...drifts.map((line) => `  ${line}`));
  const state = result.routes.flatMap((verdict) => verdict.state.map((line) => `${verdict.route} ${line}`));
  if (state.length > 0) lines.push('', 'Depends on state the run did not set up (not counted as drift):', ...state.map((line) => `  ${line}`));
  const notSent = result.routes.flatMap((verdict) => verdict.notSent.map((line) => `${verdict.route} ${line}`));
  if (notSent.length > 0) lines.push('', 'Not sent (not counted as passed):', ...notSent.map((line) => `  ${line}`));
  if (result.rules.length > 0)
    lines.push('', "The spec's rules, on its own routes:", ...result.rules.map((finding) => `  ${finding.rule} on ${finding.route}: ${finding.message}`));
  const drifted = result.routes.filter((verdict) => verdict.drifts.length > 0).length;
  lines.push(
    '',
    `${result.sent} of ${counted(result.requests, 'recorded request')} sent; ${counted(result.routes.length, 'route')}: ${drifted} drifted (${counted(drifts.length, 'finding')}), ${counted(result.rules.length, 'rule departure')} (seed ${result.seed})`,
  );
  return lines;
}

export function recordingJson(result: RecordingResult): string {
  return `${JSON.stringify(result, null, 2)}\n`;
}

/** One testcase per recorded route: failed by its drifts and the rules' departures on it, skipped when nothing of it was sent. */
export function recordingJunit(result: RecordingResult): string {
  const testcases: JunitTestcase[] = result.routes.map((verdict) => {
    const failures = [
      ...verdict.drifts.map((drift) => ({ message: driftLine(verdict.route, drift), type: 'DRIFT', text: driftLine(verdict.route, drift) })),
      ...result.rules
        .filter((finding) => finding.route === verdict.route)
        .map((finding) => ({ message: finding.message, type: finding.rule, text: finding.message })),
    ];
    const notes = [...verdict.state, ...verdict.notSent];
    return {
      name: verdict.route,
      failures,
      ...(verdict.sent === 0 ? { skipped: verdict.notSent[0] ?? 'not sent' } : {}),
      ...(notes.length === 0 ? {} : { output: notes.join('\n') }),
    };
  });
  const early = result.error ?? (result.interrupted === undefined ? undefined : `interrupted (${result.interrupted})`);
  if (early !== undefined)
    testcases.push({ name: `${RUN_TESTCASE.rule} ${RUN_TESTCASE.title}`, failures: [{ message: early, type: RUN_TESTCASE.rule, text: early }] });
  const failures = testcases.filter((testcase) => (testcase.failures?.length ?? 0) > 0).length;
  return junitXml(
    'game-service check --recording',
    { failures, durationMs: result.durationMs },
    { target: result.target, recording: result.recording, seed: result.seed },
    [{ area: 'recording', failures, durationMs: result.durationMs, testcases }],
  );
}
