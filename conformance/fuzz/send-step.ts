import type { Exchange } from '../target/exchange.js';
import type { Identity } from '../target/identities.js';
import type { Caller, Expectation } from '../model/rate-limit-model.js';
import { instant } from '../model/server-time.js';
import type { Call } from '../target/call.js';
import type { RunModel, RunReal } from './fuzz-session.js';
import { onePerRule } from '../rules/index.js';
import { judge, type Judgement, type Outcome, ruleFindings } from './judge.js';
import type { ServerChoices } from './server-choices.js';
import { Disagreement } from './step.js';

export interface StepRequest {
  description: string;
  call: Call & { identity: Identity };
  caller: Caller;
  outcome: Outcome;
}

/**
 * In real time the alignment is learned from the run's first answers, after the model opened that bucket
 * under its default: from then on the model follows the target, and that bucket ends where the answer says.
 */
function adoptLearnedAlignment(model: RunModel, choices: ServerChoices, caller: Caller, expectation: Expectation, judged: Judgement, atMs: number): void {
  const learned = choices.alignment;
  if (learned === undefined || learned === model.limits.options.alignment) return;
  model.limits.adoptAlignment(learned);
  if (expectation.category === undefined || judged.remaining === undefined || judged.windowEnd === undefined) return;
  const windowEndMs = Math.round((judged.windowEnd.fromMs + judged.windowEnd.toMs) / 2);
  model.limits.sync(expectation.category, caller, { remaining: judged.remaining, atMs, windowEndMs });
}

/**
 * Sends one request of a command, counts it in the model, and judges the answer against the model's
 * expectation; throws a Disagreement after recording the step when they differ.
 */
export async function sendStep(model: RunModel, real: RunReal, request: StepRequest): Promise<Exchange> {
  const { session } = real;
  const sentAt = Date.now();
  const atMs = model.nowMs ?? sentAt;
  const { method, path } = request.call;
  const expectation = model.limits.record({ method, path, caller: request.caller, atMs });
  const exchange = await session.target.send({ ...request.call, expectLimit: true });
  session.stats.requests++;
  if (exchange.status === 429) session.stats.limited++;
  if (expectation.counted !== false) session.counted(request.call, expectation.category);
  const at = model.nowMs === undefined ? { fromMs: sentAt, toMs: exchange.receivedAt } : instant(model.nowMs);
  const judged = judge(exchange, expectation, request.outcome, { caller: request.caller, at, choices: session.choices, exactClock: model.nowMs !== undefined });
  const knowledge = { path: path.split('?')[0]!, external: !request.caller.gameOrigin, serverTime: at };
  judged.findings = onePerRule([...judged.findings, ...ruleFindings(exchange, knowledge)]);
  real.steps.push({ description: request.description, exchange, expectation, findings: judged.findings });
  if (judged.findings.length > 0) throw new Disagreement(judged.findings);
  adoptLearnedAlignment(model, session.choices, request.caller, expectation, judged, atMs);
  // Near a window's end either answer is right: the model takes the one the target gave.
  if (expectation.nearBoundary && expectation.category !== undefined && judged.remaining !== undefined) {
    const limit = expectation.limit ?? 0;
    const windowEndMs = judged.remaining === limit - 1 ? model.limits.windowEndFor(atMs) : expectation.windowEndMs;
    model.limits.sync(expectation.category, request.caller, { remaining: judged.remaining, atMs, windowEndMs });
  }
  return exchange;
}
