import type { Exchange } from '../target/exchange.js';
import type { FuzzResult } from './run-fuzz.js';
import type { Step } from './step.js';

/** A bearer token in a report: enough to tell tokens apart, not enough to use one. */
function masked(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, name === 'authorization' ? `${value.slice(0, 16)}…` : value]));
}

function exchangeRecord(exchange: Exchange) {
  return {
    request: { method: exchange.method, url: exchange.url, headers: masked(exchange.requestHeaders), body: exchange.requestBody ?? null },
    response: { status: exchange.status, headers: exchange.headers, body: exchange.text },
  };
}

function stepRecord(step: Step) {
  const { expectation } = step;
  return {
    description: step.description,
    ...(step.exchange === undefined ? {} : exchangeRecord(step.exchange)),
    ...(expectation === undefined
      ? {}
      : {
          model: {
            bucket: expectation.key ?? null,
            counted: expectation.counted ?? null,
            limit: expectation.limit ?? null,
            remaining: expectation.remaining ?? null,
            limited: expectation.limited ?? null,
          },
        }),
    findings: step.findings,
  };
}

/** The run as JSON for CI: its figures, the target's choices, and the shrunk sequence with every exchange. */
export function fuzzReportJson(result: FuzzResult): string {
  const { failure, ...summary } = result;
  const report = {
    ...summary,
    stoppedBy: summary.stoppedBy ?? null,
    failure: failure === undefined ? null : { path: failure.path, replay: failure.replay, shrinks: failure.shrinks, steps: failure.steps.map(stepRecord) },
  };
  return `${JSON.stringify(report, null, 2)}\n`;
}
