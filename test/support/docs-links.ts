import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, extname, join, relative } from 'node:path';
import { headingAnchors, parseMarkdown } from './docs-markdown.js';

export interface BrokenLink {
  /** The Markdown file holding the link, relative to the root. */
  file: string;
  line: number;
  link: string;
  reason: string;
}

/** `[text](target)`, `![alt](target)` and `[label]: target`; a target may carry a "title". */
const INLINE_LINK = /!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const LINK_DEFINITION = /^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/;
/** A scheme (`https:`, `mailto:`) or a protocol-relative `//host`: not a file of this repository. */
const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/** Every link target on a line of prose; code spans are blanked first, so that code that looks like a link is not one. */
function linkTargets(line: string): string[] {
  const prose = line.replace(/(`+)[^`]*?\1/g, (span) => ' '.repeat(span.length));
  const targets = [...prose.matchAll(INLINE_LINK)].map((match) => match[1]!);
  const definition = LINK_DEFINITION.exec(prose);
  return definition === null ? targets : [...targets, definition[1]!];
}

/** The README and every Markdown file under docs/, relative to `root`. */
export async function documentationFiles(root: string): Promise<string[]> {
  const docs = existsSync(join(root, 'docs')) ? await readdir(join(root, 'docs'), { recursive: true }) : [];
  return ['README.md', ...docs.filter((file) => file.endsWith('.md')).map((file) => join('docs', file))];
}

/**
 * The relative links of `files` (paths under `root`) that do not resolve: a file or directory that does not
 * exist, or a `#anchor` that no heading of the target Markdown file (or of the same file) produces. Links
 * with a scheme are not followed.
 */
export async function findBrokenLinks(root: string, files: readonly string[]): Promise<BrokenLink[]> {
  const anchorsByFile = new Map<string, Set<string>>();
  const anchorsOf = async (path: string): Promise<Set<string>> => {
    let anchors = anchorsByFile.get(path);
    if (anchors === undefined) {
      anchors = headingAnchors(parseMarkdown(await readFile(path, 'utf8')).headings);
      anchorsByFile.set(path, anchors);
    }
    return anchors;
  };

  const broken: BrokenLink[] = [];
  for (const file of files) {
    const source = join(root, file);
    for (const { text, line } of parseMarkdown(await readFile(source, 'utf8')).prose) {
      for (const link of linkTargets(text)) {
        if (EXTERNAL.test(link)) continue;
        const reason = await whyBroken(root, source, link, anchorsOf);
        if (reason !== undefined) broken.push({ file: relative(root, source), line, link, reason });
      }
    }
  }
  return broken;
}

/** Why `link` in `source` does not resolve, or undefined; a path starting with / is from the repository's root, as on GitHub. */
async function whyBroken(root: string, source: string, link: string, anchorsOf: (path: string) => Promise<Set<string>>): Promise<string | undefined> {
  const hashAt = link.indexOf('#');
  const pathPart = decodeURIComponent(hashAt === -1 ? link : link.slice(0, hashAt));
  const anchor = hashAt === -1 ? undefined : decodeURIComponent(link.slice(hashAt + 1));
  const target = pathPart === '' ? source : join(pathPart.startsWith('/') ? root : dirname(source), pathPart);
  if (!existsSync(target)) return `no file ${pathPart}`;
  if (anchor === undefined) return undefined;
  if (extname(target) !== '.md') return `anchors are checked in Markdown files only, and ${pathPart} is not one`;
  return (await anchorsOf(target)).has(anchor) ? undefined : `no heading of ${pathPart === '' ? 'this file' : pathPart} has the anchor #${anchor}`;
}
