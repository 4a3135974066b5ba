import { describe, expect, it } from 'vitest';
import { workflowSteps } from './support/docs-workflow.js';

// biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a template of this language
const STAGING_URL = '${{ vars.STAGING_URL }}';

describe("the reader of docs/ci.md's workflow steps", () => {
  it('reads uses, if, with and env values, one-line runs and | blocks (blank and comment lines kept) in order', () => {
    const yaml = [
      'jobs:',
      '  job:',
      '    steps:',
      '      - uses: actions/setup-node@v4',
      '        with:',
      '          node-version: 24',
      '      - name: Install',
      '        run: npm ci   # a comment',
      '      - env:',
      `          STAGING_URL: ${STAGING_URL}`,
      '        run: check "$STAGING_URL"',
      '      - run: |',
      '          # wait for it',
      '          start &',
      '',
      '            indented',
      '        if: always()',
      '',
    ].join('\n');

    expect(workflowSteps(yaml)).toEqual([
      { uses: 'actions/setup-node@v4', with: { 'node-version': '24' }, env: {} },
      { name: 'Install', run: 'npm ci', with: {}, env: {} },
      { run: 'check "$STAGING_URL"', with: {}, env: { STAGING_URL } },
      { run: '# wait for it\nstart &\n\n  indented', if: 'always()', with: {}, env: {} },
    ]);
  });

  it('refuses what it would misread: a quoted or folded run, and an unknown step key', () => {
    const step = (line: string) => `steps:\n  - ${line}\n`;

    expect(() => workflowSteps(step('run: "npm ci"'))).toThrow(/line 2: "npm ci" is not a plain value/);
    expect(() => workflowSteps(step('run: >'))).toThrow(/line 2: > is not a plain value/);
    expect(() => workflowSteps(step('shell: bash'))).toThrow(/line 2: the step key shell is not one this reader takes/);
    expect(() => workflowSteps('jobs: {}\n')).toThrow(/no steps: list/);
  });
});
