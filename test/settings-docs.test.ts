import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shownDefault } from '../src/standalone/setting-declaration.js';
import { FILE_SETTINGS, FLAG_SETTINGS } from '../src/standalone/setting-forms.js';
import { CHECK_SETTINGS } from '../src/cli/check-settings.js';
import { FUZZ_SETTINGS } from '../src/cli/fuzz-settings.js';
import { PROXY_SETTINGS } from '../src/cli/proxy-settings.js';
import { ROOT } from './support/cli.js';

const page = (name: string) => readFileSync(join(ROOT, 'docs', name), 'utf8');

/** A cell as a reader sees it: no code marks, a link as its text. */
const plain = (cell: string) =>
  cell
    .replaceAll('`', '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim();

/** The rows of the Markdown table whose header begins with `firstHeader`, each as its cells. */
function tableRows(markdown: string, firstHeader: string): string[][] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`| ${firstHeader} `));
  const rows = lines.slice(start + 2).filter((_line, index, all) => all.slice(0, index + 1).every((line) => line.startsWith('|')));
  // `\|` inside a cell is a pipe of its text, not a border.
  return rows.map((row) => row.split(/(?<!\\)\|/).slice(1, -1));
}

describe('the docs of the mock, held to its settings (src/standalone/settings.ts)', () => {
  it('docs/mock.md lists every flag of the mock, in order, with the default --help shows', () => {
    const documented = tableRows(page('mock.md'), 'Flag').map(([flag = '', shown = '']) => ({
      flag: /--([\w-]+)/.exec(flag)?.[1],
      default: plain(shown),
    }));
    const declared = FLAG_SETTINGS.map(({ flag, setting }) => ({ flag: flag.name, default: shownDefault(setting) ?? 'none' }));
    expect(documented).toEqual(declared);
  });

  it('docs/config-file.md names every key of the config file', () => {
    const markdown = page('config-file.md');
    const sentence = markdown.slice(markdown.indexOf('The keys are the flags in camelCase'), markdown.indexOf('| Key '));
    const inSentence = [...sentence.matchAll(/`(\w+)/g)].map((match) => match[1]);
    const inTable = tableRows(markdown, 'Key').flatMap(([keys = '']) => [...keys.matchAll(/`(\w+)/g)].map((match) => match[1]));
    const declared = FILE_SETTINGS.map(({ name }) => name).filter((name) => name !== '$schema');
    expect(new Set([...inSentence, ...inTable])).toEqual(new Set(declared));
  });
});

/** The flags a cell names (`--junit FILE`, `--json FILE`: junit, json). */
const flagsIn = (cell: string) => [...cell.matchAll(/--([\w-]+)/g)].map((match) => match[1]);

describe('the docs of check, fuzz and the proxy, held to their settings (src/cli/*-settings.ts)', () => {
  it('docs/check.md lists every flag of check', () => {
    const documented = tableRows(page('check.md'), 'Flag').flatMap(([flags = '']) => flagsIn(flags));
    expect(documented.sort()).toEqual(CHECK_SETTINGS.map(({ name }) => name).sort());
  });

  it('docs/fuzz.md names every flag of fuzz', () => {
    const named = new Set(flagsIn(page('fuzz.md')));
    expect(FUZZ_SETTINGS.map(({ name }) => name).filter((name) => !named.has(name))).toEqual([]);
  });

  it('docs/proxy.md lists every flag of the proxy, with the default --help shows', () => {
    const documented = tableRows(page('proxy.md'), 'Flag').map(([flags = '', shown = '']) => ({ flags: flagsIn(flags), default: plain(shown) }));
    const declared = documented.map(({ flags }) => ({
      flags,
      default: flags
        .map((flag) => PROXY_SETTINGS.find(({ name }) => name === flag))
        .map((setting) => (setting === undefined ? '?' : 'required' in setting ? '(required)' : 'defaultText' in setting ? setting.defaultText : ''))
        .join(', '),
    }));
    expect(documented).toEqual(declared);
    expect(documented.flatMap(({ flags }) => flags).sort()).toEqual(PROXY_SETTINGS.map(({ name }) => name).sort());
  });
});
