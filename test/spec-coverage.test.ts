import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { collectChecks } from '../conformance/run/collect-checks.js';
import type { DeclaredCheck } from '../conformance/report/declared-check.js';
import { SPEC_COVERAGE_PAGE, specCoveragePage } from '../conformance/report/spec-coverage-page.js';
import { SPEC_PAGE, specPage } from '../conformance/report/spec-page.js';
import { SERVER_RULES } from '../conformance/rules/index.js';
import { ROOT } from './support/cli.js';

let checks: DeclaredCheck[];
beforeAll(async () => {
  checks = await collectChecks();
}, 60_000);

/** Fails with the command that rewrites `page` when the committed file is not what the sources give. */
function expectCommitted(page: string, generated: string): void {
  if (readFileSync(`${ROOT}${page}`, 'utf8') !== generated) {
    expect.fail(`${page} differs from what the sentences, rules and checks give: run \`npm run spec-coverage\` and commit the result`);
  }
}

describe('the pages written from the spec coverage map', () => {
  it(`${SPEC_COVERAGE_PAGE} is what the sentences, the rules and the checks give`, () => {
    expect(new Set(checks.map((check) => check.rule))).toEqual(new Set(SERVER_RULES.map((rule) => rule.id)));
    expectCommitted(SPEC_COVERAGE_PAGE, specCoveragePage(checks));
  });

  it(`${SPEC_PAGE} is what the plain words, the sentences, the rules and the checks give`, () => {
    expectCommitted(SPEC_PAGE, specPage(checks));
  });

  it(`${SPEC_PAGE} gives every rule of the spec in plain words, with its id and the rules of the checks that test it`, () => {
    const page = specPage(checks);
    expect(page).toContain('- Register and verify-email together: 5 requests a minute per IP address, for every caller.\n  - `LIM-AUTH`: checks `RL-LIMIT`');
    expect(page).toContain('`LIM-ADMIN`: untested');
    expect(page).toMatch(/## Limits\n[\s\S]*Left open:\n\n- How many action points .* `LIM-AP-OPEN`/);
  });
});
