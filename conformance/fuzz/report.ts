import { HEADERS } from '../../src/spec/limits.js';
import { evidence, header } from '../common/exchange.js';
import { ruleQuote } from '../rules/index.js';
import { indent } from '../report/console-reporter.js';
import type { Step } from './step.js';

const SHOWN_HEADERS = [HEADERS.rateLimitLimit, HEADERS.rateLimitRemaining, HEADERS.rateLimitReset, HEADERS.retryAfter] as const;
const SHORT_NAMES: Record<(typeof SHOWN_HEADERS)[number], string> = {
  [HEADERS.rateLimitLimit]: 'Limit',
  [HEADERS.rateLimitRemaining]: 'Remaining',
  [HEADERS.rateLimitReset]: 'Reset',
  [HEADERS.retryAfter]: 'Retry-After',
};

function responseLine(step: Step): string {
  const { exchange } = step;
  if (exchange === undefined) return '';
  const shown = SHOWN_HEADERS.flatMap((name) => {
    const value = header(exchange, name);
    return value === undefined ? [] : [`${SHORT_NAMES[name]} ${value}`];
  });
  const expected = step.expectation?.remaining === undefined ? '' : ` (model: ${step.expectation.limited ? '429' : `Remaining ${step.expectation.remaining}`})`;
  return `\n     → ${exchange.status}${shown.length > 0 ? `  ${shown.join(', ')}` : ''}${expected}`;
}

/** The shrunk sequence as a numbered list of requests and responses, the disagreement under its step. */
export function formatSteps(steps: readonly Step[]): string {
  const lines = steps.map((step, index) => {
    const findings = step.findings.map((finding) => `\n     ✗ ${finding.rule} «${ruleQuote(finding.rule)}»\n       ${finding.message}`).join('');
    return `  ${index + 1}. ${step.description}${responseLine(step)}${findings}`;
  });
  const last = steps.at(-1);
  const full = last?.exchange === undefined ? '' : `\n\n  The disagreeing exchange in full:\n${indent(evidence(last.exchange))}`;
  return `${lines.join('\n')}${full}`;
}

/** fast-check's path and the commands' replay path, as one --replay value. */
export function replayToken(path: string, replayPath: string | undefined): string {
  return replayPath === undefined ? path : `${path}@${replayPath}`;
}

/** fast-check's replay path of a command sequence: run lengths, a colon, and the values they repeat, six to a digit (base64). */
function isCommandsReplayPath(text: string): boolean {
  const parts = /^([A-Za-z0-9+/]*):([A-Za-z0-9+/]*)$/.exec(text);
  return parts !== null && parts[2]!.length === Math.ceil(parts[1]!.length / 6);
}

export function parseReplayToken(token: string): { path: string; replayPath: string | undefined } {
  const at = token.indexOf('@');
  const path = at === -1 ? token : token.slice(0, at);
  const replayPath = at === -1 ? undefined : token.slice(at + 1);
  if (!/^\d+(:\d+)*$/.test(path) || (replayPath !== undefined && !isCommandsReplayPath(replayPath))) {
    throw new Error(`--replay ${JSON.stringify(token)} is not a value printed by a failed run (PATH or PATH@COMMANDS)`);
  }
  return { path, replayPath };
}

/** The replay path fast-check writes into a command sequence's description. */
export function replayPathOf(commands: unknown): string | undefined {
  return /replayPath="([^"]*)"/.exec(String(commands))?.[1];
}
