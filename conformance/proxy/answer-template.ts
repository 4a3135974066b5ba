import { SIX_DIGITS } from '../rules/formats.js';
import { isObject } from '../common/exchange.js';
import type { RouteParam } from './route-pattern.js';
import { type SignedInPlayer, TOKEN_FIELD } from './traffic-identities.js';

/** Written instead of a token: still a UUID, as the spec's tokens are. */
export const REDACTED_TOKEN = '00000000-0000-0000-0000-000000000000';
/** Written instead of a code: still six digits. */
export const REDACTED_CODE = '000000';

const CODE_FIELD = /otp|codes?$/i;
const EMAIL_IN_TEXT = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;

/** One placeholder address per address of the traffic, numbered as first met: `player1@example.com`. */
export class EmailPlaceholders {
  readonly #placeholders = new Map<string, string>();

  for(email: string): string {
    let placeholder = this.#placeholders.get(email);
    if (placeholder === undefined) {
      placeholder = `player${this.#placeholders.size + 1}@example.com`;
      this.#placeholders.set(email, placeholder);
    }
    return placeholder;
  }
}

/** What a recorded answer is templated and redacted with. */
export interface AnswerScope {
  params: readonly RouteParam[];
  tokens: ReadonlySet<string>;
  /** The player of the request's token, on a route that has a player; its id and email become `{{player.…}}`. */
  player: SignedInPlayer | undefined;
  emails: EmailPlaceholders;
}

/** A recorded answer as a route's `response` template. */
export interface AnswerTemplate {
  response: Record<string, unknown>;
}

/** Text kept as it is, or a template expression (`params.galaxyId`). */
type Piece = { literal: string } | { expression: string };

/** Shorter tokens are redacted only as whole values: as parts of text they would match ordinary words. */
const MIN_TOKEN_IN_TEXT = 8;

function withoutTokens(text: string, tokens: ReadonlySet<string>): string {
  if (tokens.has(text)) return REDACTED_TOKEN;
  let redacted = text;
  for (const token of tokens) if (token.length >= MIN_TOKEN_IN_TEXT) redacted = redacted.replaceAll(token, REDACTED_TOKEN);
  return redacted;
}

function emailPieces(text: string, scope: AnswerScope): Piece[] {
  const pieces: Piece[] = [];
  let last = 0;
  for (const match of text.matchAll(EMAIL_IN_TEXT)) {
    pieces.push({ literal: text.slice(last, match.index) });
    pieces.push(match[0] === scope.player?.email ? { expression: 'player.email' } : { literal: scope.emails.for(match[0]) });
    last = match.index + match[0].length;
  }
  pieces.push({ literal: text.slice(last) });
  return pieces;
}

/**
 * Text the mock gives back as it is, though it holds `{{`: the template language has no escape, but
 * `{{now.verbatim ?? "…"}}` reaches nothing (now is a string) and so gives its JSON fallback, in which braces
 * and line separators are written as \u escapes so that no `}}` ends the placeholder early.
 */
export function verbatim(text: string): string {
  const json = JSON.stringify(text).replace(/[{}\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `{{now.verbatim ?? ${json}}}`;
}

/** The pieces as one template string; literal text that would read as a placeholder is kept verbatim. */
function joined(pieces: readonly Piece[]): string {
  const merged: Piece[] = [];
  for (const piece of pieces) {
    const previous = merged.at(-1);
    if ('literal' in piece && previous !== undefined && 'literal' in previous) merged[merged.length - 1] = { literal: previous.literal + piece.literal };
    else merged.push(piece);
  }
  return merged
    .map((piece, index) => {
      if ('expression' in piece) return `{{${piece.expression}}}`;
      // A `{` just before a placeholder would join its `{{`.
      const beforePlaceholder = piece.literal.endsWith('{') && merged[index + 1] !== undefined;
      return piece.literal.includes('{{') || beforePlaceholder ? verbatim(piece.literal) : piece.literal;
    })
    .join('');
}

/** The expression giving back a whole value: a path parameter first, then the player's id or email. */
function wholeValueExpression(text: string, scope: AnswerScope): string | undefined {
  const param = scope.params.find(({ value }) => value === text);
  if (param !== undefined) return `params.${param.name}`;
  if (text === scope.player?.id) return 'player.id';
  return text === scope.player?.email ? 'player.email' : undefined;
}

function stringTemplate(text: string, key: string | undefined, scope: AnswerScope): string {
  const whole = wholeValueExpression(text, scope);
  if (whole !== undefined) return `{{${whole}}}`;
  if (key !== undefined && TOKEN_FIELD.test(key)) return REDACTED_TOKEN;
  if (key !== undefined && CODE_FIELD.test(key) && SIX_DIGITS.test(text)) return REDACTED_CODE;
  return joined(emailPieces(withoutTokens(text, scope.tokens), scope));
}

/** A string of a request as a recording writes it down: tokens, codes (by their field's name) and addresses redacted. */
export function redactedString(text: string, key: string | undefined, tokens: ReadonlySet<string>, emails: EmailPlaceholders): string {
  if (key !== undefined && TOKEN_FIELD.test(key)) return REDACTED_TOKEN;
  if (key !== undefined && CODE_FIELD.test(key) && SIX_DIGITS.test(text)) return REDACTED_CODE;
  return withoutTokens(text, tokens).replace(EMAIL_IN_TEXT, (email) => emails.for(email));
}

/** A key of an object is not a template: its tokens and addresses become placeholders, nothing more. */
function keyOf(key: string, scope: AnswerScope): string {
  return withoutTokens(key, scope.tokens).replace(EMAIL_IN_TEXT, (email) => scope.emails.for(email));
}

function templateOf(value: unknown, key: string | undefined, scope: AnswerScope): unknown {
  if (typeof value === 'string') return stringTemplate(value, key, scope);
  // The items of an array are named by its key: `otps: ["123456"]`.
  if (Array.isArray(value)) return value.map((item) => templateOf(item, key, scope));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([name, item]) => [keyOf(name, scope), templateOf(item, name, scope)]));
  return value;
}

/**
 * A recorded JSON object as a `response` template: strings equal to a path parameter become `{{params.name}}`,
 * the signed-in player's id and email `{{player.id}}` and `{{player.email}}`; tokens, other addresses and codes
 * are redacted; text holding `{{` is kept verbatim.
 */
export function answerTemplate(body: Readonly<Record<string, unknown>>, scope: AnswerScope): AnswerTemplate {
  return { response: templateOf(body, undefined, scope) as Record<string, unknown> };
}
