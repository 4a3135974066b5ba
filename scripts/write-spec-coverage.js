// Writes docs/spec-coverage.md from the sentences, the rules and the checks (run through `npm run spec-coverage`, which builds first).
import { writeFileSync } from 'node:fs';
import { collectChecks } from '../dist/conformance/collect-checks.js';
import { SPEC_COVERAGE_PAGE, specCoveragePage } from '../dist/conformance/report/spec-coverage-page.js';

writeFileSync(new URL(`../${SPEC_COVERAGE_PAGE}`, import.meta.url), specCoveragePage(await collectChecks()));
console.log(`wrote ${SPEC_COVERAGE_PAGE}`);
