// Writes docs/spec-coverage.md and docs/spec.md from the sentences, the rules and the checks (run through `npm run spec-coverage`,
// which builds first).
import { writeFileSync } from 'node:fs';
import { collectChecks } from '../dist/conformance/run/collect-checks.js';
import { SPEC_COVERAGE_PAGE, specCoveragePage } from '../dist/conformance/report/spec-coverage-page.js';
import { SPEC_PAGE, specPage } from '../dist/conformance/report/spec-page.js';

const checks = await collectChecks();
for (const [page, text] of [
  [SPEC_COVERAGE_PAGE, specCoveragePage(checks)],
  [SPEC_PAGE, specPage(checks)],
]) {
  writeFileSync(new URL(`../${page}`, import.meta.url), text);
  console.log(`wrote ${page}`);
}
