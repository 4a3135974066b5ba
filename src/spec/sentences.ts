import { AUTHENTICATION_SENTENCES, ENDPOINT_SENTENCES, ERROR_SENTENCES, EVENT_SENTENCES } from './sentences-interface.js';
import { LIMIT_SENTENCES, VERSION_SENTENCES } from './sentences-limits.js';
import { INTRO_SENTENCES, RESOURCE_SENTENCES, SERVICE_SENTENCES, STATE_SENTENCES } from './sentences-resources.js';

export { SPEC_SECTIONS, type SentenceKind, type SpecSection, type SpecSentence } from './sentences-shape.js';

/** Every sentence of the spec, in the spec's order, each with a stable id (see sentences-shape.ts for what a sentence is). */
export const SENTENCES = [
  ...INTRO_SENTENCES,
  ...SERVICE_SENTENCES,
  ...RESOURCE_SENTENCES,
  ...STATE_SENTENCES,
  ...ENDPOINT_SENTENCES,
  ...AUTHENTICATION_SENTENCES,
  ...EVENT_SENTENCES,
  ...ERROR_SENTENCES,
  ...LIMIT_SENTENCES,
  ...VERSION_SENTENCES,
] as const;

export type SentenceId = (typeof SENTENCES)[number]['id'];
