import { describe, expect, it } from 'vitest';
import { COMMAND_SETTINGS } from '../src/cli/command-flags.js';
import { useCli } from './support/cli.js';

const cli = useCli();

/** Flags yargs gives every command, declared by no table. */
const BUILT_IN = ['help', 'version'];

/** Text as a reader sees it across --help's wrapped lines: one space between words. */
const words = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Each flag --help lists, with the text beside it up to the next flag (its description, tags and default). */
function helpEntries(help: string): Map<string, string> {
  // The Options section, up to the blank line before the epilog.
  const options = help.slice(help.indexOf('Options:')).split('\n\n')[0]!;
  const entries = new Map<string, string>();
  let current: string | undefined;
  for (const line of options.split('\n')) {
    // A flag's own line starts in the flags' column (`      --port`, `  -h, --help`); its description goes on deeper in.
    const flag = /^ {2}(?:-\w, | {4})--([\w-]+)/.exec(line);
    if (flag !== null) {
      current = flag[1]!;
      entries.set(current, line.slice(flag[0].length));
    } else if (current !== undefined && /^\s/.test(line)) {
      entries.set(current, `${entries.get(current)} ${line}`);
    } else current = undefined;
  }
  return new Map([...entries].map(([flag, text]) => [flag, words(text)]));
}

describe('--help of each command, held to its settings table', () => {
  it.each(Object.keys(COMMAND_SETTINGS))('%s --help lists each setting with its description and default, and no flag beside them', async (command) => {
    const result = await cli.run([command, '--help']);
    expect(result.code).toBe(0);
    const entries = helpEntries(result.stdout);
    const settings = COMMAND_SETTINGS[command]!;
    expect([...entries.keys()].sort()).toEqual([...settings.map(({ name }) => name), ...BUILT_IN].sort());
    for (const setting of settings) {
      const entry = entries.get(setting.name)!;
      expect(entry, setting.name).toContain(words(setting.description));
      if (setting.defaultText !== undefined) expect(entry, setting.name).toContain(`[default: ${words(setting.defaultText)}]`);
      else expect(entry, setting.name).not.toContain('[default:');
    }
  });
});
