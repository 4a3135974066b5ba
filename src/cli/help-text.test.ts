import { afterEach, describe, expect, it, vi } from 'vitest';
import { mendHelp } from './help-text.js';
import { main } from './main.js';

/** A description run into its type tag, as cliui writes one that fills its column exactly. */
const GLUED = /\S\[(?:boolean|count|string|array|number)\]/;

/** What `game-service ...args --help` prints on a terminal this many columns wide. */
async function helpAt(columns: number, args: readonly string[]): Promise<string> {
  Object.defineProperty(process.stdout, 'columns', { value: columns, configurable: true });
  const printed: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((text: string) => void printed.push(text));
  expect(await main([...args, '--help'])).toBe(0);
  return printed.join('\n');
}

// The test runner's own stdout: a pipe has no columns, a terminal has.
const ownColumns = Object.getOwnPropertyDescriptor(process.stdout, 'columns');
afterEach(() => {
  vi.restoreAllMocks();
  if (ownColumns === undefined) Reflect.deleteProperty(process.stdout, 'columns');
  else Object.defineProperty(process.stdout, 'columns', ownColumns);
});

describe('mendHelp', () => {
  it('moves a type tag run into its description to a line of its own, ending where the line ended', () => {
    const line = '      --max-duration  Stop after this many seconds[number] [default: none]';
    expect(mendHelp(`Options:\n${line}\n`)).toBe(
      `Options:\n      --max-duration  Stop after this many seconds\n${'[number] [default: none]'.padStart(line.length)}\n`,
    );
  });

  it('leaves brackets inside a description alone', () => {
    const line = '  --fault  Inject a fault: [METHOD] PATH EFFECT[@PROBABILITY]               [array]';
    expect(mendHelp(line)).toBe(line);
  });
});

describe('--help', () => {
  // Widths from a narrow terminal to the 110 columns the CLI caps it at: where a description ends depends on them.
  const widths = Array.from({ length: 61 }, (_, index) => 50 + index);

  it.each([[[]], [['mock']], [['check']], [['fuzz']]])('of %j leaves a space before every type tag at every width', async (args) => {
    for (const columns of widths) {
      const help = await helpAt(columns, args);
      expect(help).toContain('[boolean]');
      expect(
        help.split('\n').filter((line) => GLUED.test(line)),
        `${columns} columns`,
      ).toEqual([]);
    }
  });
});
