import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { collectChecks } from '../conformance/collect-checks.js';
import { SPEC_COVERAGE_PAGE, specCoveragePage } from '../conformance/report/spec-coverage-page.js';
import { RULES } from '../conformance/rules.js';
import { ROOT } from './support/cli.js';

describe('the spec coverage map', () => {
  it(`${SPEC_COVERAGE_PAGE} is what the sentences, the rules and the checks give`, async () => {
    const checks = await collectChecks();
    expect(new Set(checks.map((check) => check.rule))).toEqual(new Set(Object.keys(RULES)));
    if (readFileSync(`${ROOT}${SPEC_COVERAGE_PAGE}`, 'utf8') !== specCoveragePage(checks)) {
      expect.fail(`${SPEC_COVERAGE_PAGE} differs from what the sentences, rules and checks give: run \`npm run spec-coverage\` and commit the result`);
    }
  }, 60_000);
});
