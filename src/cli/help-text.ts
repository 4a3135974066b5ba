/**
 * yargs lays --help out with cliui, which puts a flag's type tag on the last line of its description whenever
 * it fits, even with no space left between them (`after this many seconds[number]`, yargs/cliui#88). Such a
 * tag goes to a line of its own here, right-aligned as cliui aligns a tag that does not fit.
 */
const GLUED_TAG = /^(.*?\S)(\[(?:boolean|count|string|array|number)\].*)$/;

export function mendHelp(text: string): string {
  return text
    .split('\n')
    .flatMap((line) => {
      const glued = GLUED_TAG.exec(line);
      if (glued === null) return [line];
      const [, description = '', tags = ''] = glued;
      return [description, tags.padStart(line.length)];
    })
    .join('\n');
}
