/**
 * Just enough of Markdown as GitHub renders it for the docs tests: ATX headings (`## Title`; setext
 * headings are not used here), their anchors, and fenced code blocks. No Markdown library is installed,
 * and this much is a few lines.
 */

export interface Heading {
  level: number;
  text: string;
  /** 1-based line number. */
  line: number;
}

export interface FencedBlock {
  /** The info string's first word: `sh`, `ts`, `yaml`, or '' for none. */
  lang: string;
  code: string;
  /** The headings the block sits under, outermost first. */
  headings: Heading[];
  line: number;
}

/** A line of prose with its 1-based number; lines inside fenced blocks are left out. */
export interface ProseLine {
  text: string;
  line: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)/;
const ATX_HEADING = /^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/;

/** One pass over the document: its prose lines, headings and fenced blocks. */
export function parseMarkdown(markdown: string): { prose: ProseLine[]; headings: Heading[]; blocks: FencedBlock[] } {
  const prose: ProseLine[] = [];
  const headings: Heading[] = [];
  const blocks: FencedBlock[] = [];
  const open: Heading[] = [];
  let fence: { marker: string; lang: string; line: number; lines: string[] } | undefined;
  markdown.split('\n').forEach((text, index) => {
    const line = index + 1;
    const fenceMatch = FENCE.exec(text);
    if (fence !== undefined) {
      const closes = fenceMatch !== null && fenceMatch[1]![0] === fence.marker[0] && fenceMatch[1]!.length >= fence.marker.length && fenceMatch[2] === '';
      if (closes) {
        blocks.push({ lang: fence.lang, code: fence.lines.join('\n'), headings: [...open], line: fence.line });
        fence = undefined;
      } else {
        fence.lines.push(text);
      }
      return;
    }
    if (fenceMatch !== null) {
      fence = { marker: fenceMatch[1]!, lang: fenceMatch[2]!, line, lines: [] };
      return;
    }
    const headingMatch = ATX_HEADING.exec(text);
    if (headingMatch !== null) {
      const heading = { level: headingMatch[1]!.length, text: headingMatch[2]!, line };
      while (open.length > 0 && open.at(-1)!.level >= heading.level) open.pop();
      open.push(heading);
      headings.push(heading);
    }
    prose.push({ text, line });
  });
  return { prose, headings, blocks };
}

/** A heading's text as GitHub renders it: code spans, emphasis, links and inline HTML reduced to their text. */
function renderedText(heading: string): string {
  return heading
    .replace(/`([^`]*)`/g, '$1')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/\*+/g, '');
}

/**
 * GitHub's heading anchors (as github-slugger computes them): lower-case; every character that is not a
 * letter, digit, mark, `_`, `-` or space dropped; spaces to hyphens; a repeated slug gets -1, -2, … in order.
 */
export function headingAnchors(headings: readonly Heading[]): Set<string> {
  const anchors = new Set<string>();
  for (const heading of headings) {
    const base = renderedText(heading.text)
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    let anchor = base;
    for (let repeat = 1; anchors.has(anchor); repeat++) anchor = `${base}-${repeat}`;
    anchors.add(anchor);
  }
  return anchors;
}
