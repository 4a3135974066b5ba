import { describe, expect, it } from 'vitest';
import { junitXml } from './junit.js';

describe('junitXml', () => {
  it('writes the whole file: counts, properties, and each kind of testcase, escaped', () => {
    const testcases = [
      { name: 'passed <fast>', durationMs: 12 },
      { name: 'failed', failures: [{ message: 'a & b', type: 'RULE-ID', text: 'a & b\nmore' }], output: 'observation: "quoted"' },
      { name: 'skipped', skipped: "didn't run" },
    ];
    const file = junitXml('tool', { failures: 1, durationMs: 1_500 }, { target: 'http://x/?a&b', seed: 7, interrupted: undefined }, [
      { area: 'area', failures: 1, durationMs: 12, testcases },
    ]);
    expect(file).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites name="tool" tests="3" failures="1" errors="0" skipped="1" time="1.500">',
        '  <testsuite name="tool: area" tests="3" failures="1" errors="0" skipped="1" time="0.012">',
        '    <properties><property name="target" value="http://x/?a&amp;b"/><property name="seed" value="7"/></properties>',
        '    <testcase classname="tool.area" name="passed &lt;fast&gt;" time="0.012"/>',
        '    <testcase classname="tool.area" name="failed">',
        '      <failure message="a &amp; b" type="RULE-ID">a &amp; b\nmore</failure>',
        '      <system-out>observation: &quot;quoted&quot;</system-out>',
        '    </testcase>',
        '    <testcase classname="tool.area" name="skipped">',
        '      <skipped message="didn&apos;t run"/>',
        '    </testcase>',
        '  </testsuite>',
        '</testsuites>',
        '',
      ].join('\n'),
    );
  });
});
