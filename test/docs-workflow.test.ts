import { describe, expect, it } from 'vitest';
import { workflowSteps } from './support/docs-workflow.js';

describe("the reader of docs/ci.md's workflow steps", () => {
  it('reads uses, if, with values, one-line runs and | blocks (blank and comment lines kept) in order', () => {
    const yaml = [
      'jobs:',
      '  job:',
      '    steps:',
      '      - uses: actions/setup-node@v4',
      '        with:',
      '          node-version: 24',
      '      - name: Install',
      '        run: npm ci   # a comment',
      '      - run: |',
      '          # wait for it',
      '          start &',
      '',
      '            indented',
      '        if: always()',
      '',
    ].join('\n');

    expect(workflowSteps(yaml)).toEqual([
      { uses: 'actions/setup-node@v4', with: { 'node-version': '24' } },
      { name: 'Install', run: 'npm ci', with: {} },
      { run: '# wait for it\nstart &\n\n  indented', if: 'always()', with: {} },
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
