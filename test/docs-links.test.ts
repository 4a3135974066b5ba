import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from './support/cli.js';
import { documentationFiles, findBrokenLinks } from './support/docs-links.js';

const fixtures: string[] = [];
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A temporary repository holding `files` (path → Markdown). */
async function repository(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'docs-links-'));
  fixtures.push(root);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

describe('links in the README and docs/', () => {
  it('every relative link and anchor of README.md and docs/**/*.md resolves', async () => {
    const files = await documentationFiles(ROOT);

    expect(files).toContain('docs/ci.md');
    expect(await findBrokenLinks(ROOT, files)).toEqual([]);
  });

  it('reports a link to a missing file and a missing anchor, each with its file and link', async () => {
    const root = await repository({
      'README.md': '# Title\n\nSee [the guide](docs/guide.md#setup) and [the FAQ](docs/faq.md).\n',
      'docs/guide.md': '# Guide\n\n## Set-up\n\nBack to [the title](../README.md#title).\n',
    });

    const broken = await findBrokenLinks(root, await documentationFiles(root));

    expect(broken).toEqual([
      { file: 'README.md', line: 3, link: 'docs/guide.md#setup', reason: 'no heading of docs/guide.md has the anchor #setup' },
      { file: 'README.md', line: 3, link: 'docs/faq.md', reason: 'no file docs/faq.md' },
    ]);
  });

  it("resolves anchors by GitHub's rules: lower case, punctuation dropped, spaces to hyphens, repeats numbered", async () => {
    const root = await repository({
      'README.md': [
        '# Conformance suite: `game-service check`',
        '## Examples',
        '## Examples',
        "## What's new? (v2)",
        '```md',
        '## Not a heading, in a code block',
        '[not a link](missing.md)',
        '```',
        'Links: [a](#conformance-suite-game-service-check), [b](#examples-1), [c](#whats-new-v2), `[code](missing.md)`,',
        '[d](#examples-2), [e](#not-a-heading-in-a-code-block), [f](https://example.com/nowhere.md), [g](/docs/)',
        '',
      ].join('\n'),
      'docs/.keep.md': '',
    });

    const broken = await findBrokenLinks(root, ['README.md']);

    expect(broken.map(({ link }) => link)).toEqual(['#examples-2', '#not-a-heading-in-a-code-block']);
  });
});
