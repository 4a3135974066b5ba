/**
 * The shape of the spec's sentences as data (sentences.ts). Every line of the spec that is not a heading or a
 * table's header has at least one sentence; a sentence is one of:
 * - normative: it states what a server or a client can get wrong (a status, a field, a header, a limit, a lifetime);
 * - spec-silent: it says what the spec leaves open ("not shown"); a sentence that is normative but leaves a detail
 *   open ("unit unspecified") stays normative;
 * - descriptive: it describes the document or the service, or defines a word, and obliges nothing by itself.
 */

/** The spec's sections, as its headings spell them: the title stands for the paragraph under it. */
export const SPEC_SECTIONS = [
  'Game Service HTTP API Specification',
  'What the service does',
  'Resources and their fields',
  'States and transitions',
  'Endpoints',
  'Authentication',
  'Events',
  'Errors',
  'Limits',
  'Versioning',
] as const;

export type SpecSection = (typeof SPEC_SECTIONS)[number];

export type SentenceKind = 'normative' | 'spec-silent' | 'descriptive';

export interface SpecSentence {
  /** Stable: a check, a fuzz property or a proxy rule names it. Section prefix, then what the sentence is about. */
  readonly id: string;
  readonly section: SpecSection;
  readonly kind: SentenceKind;
  /** The spec's own words, verbatim (a table row's cells joined as the spec writes them, with ` | `). */
  readonly words: string;
}

/** The sentences of one section, each with its section; the ids keep their literal types. */
export function sentencesOf<const Entries extends readonly Omit<SpecSentence, 'section'>[]>(
  section: SpecSection,
  entries: Entries,
): { readonly [Index in keyof Entries]: Entries[Index] & { readonly section: SpecSection } } {
  return entries.map((entry) => ({ ...entry, section })) as never;
}
