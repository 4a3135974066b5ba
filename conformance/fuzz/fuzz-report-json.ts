import { exchangeRecord } from '../common/exchange.js';
import type { FuzzResult } from './run-fuzz.js';
import type { Step } from './step.js';

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
