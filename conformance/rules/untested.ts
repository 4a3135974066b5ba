import type { SentenceId } from '../../src/spec/sentences.js';

/** Why no rule tests a normative sentence of the spec. */
export const UNTESTED_REASONS = {
  'not-observable': 'not observable from outside the server',
  'needs-unshown': 'needs what the spec does not show',
  'client-side': "a client's duty: no server is judged by it; the proxy judges clients",
  'no-check': 'no check yet',
} as const;

export type UntestedReason = keyof typeof UNTESTED_REASONS;

export interface Untested {
  reason: UntestedReason;
  why: string;
}

/** The normative sentences no server rule tests, each with its reason; a test keeps this list and the rules apart. */
export const UNTESTED_SENTENCES = {
  'RES-REGISTER-CHALLENGE': {
    reason: 'no-check',
    why: 'with --challenge-token, a check could register without it and expect a refusal (a target with the bot-check on)',
  },
  'STATE-CODE-CONSOLE': {
    reason: 'not-observable',
    why: "the server's console is not reached over HTTP (--otp-source log:FILE reads it, but does not judge it)",
  },
  'STATE-REREGISTER': {
    reason: 'no-check',
    why: 'after TOKEN-EXPIRY, a check could register the address again and verify the new code (clock control needed)',
  },
  'EP-REQUEST-CONTENT-TYPE': { reason: 'client-side', why: 'the header a client sends with a body; a server may take other bodies leniently' },
  'AUTH-NO-PASSWORDS': {
    reason: 'not-observable',
    why: 'what a server stores is not seen from outside (register and verify-email taking none is REG-OK and VERIFY-OK)',
  },
  'ERR-STATUS-403': { reason: 'needs-unshown', why: 'action costs, points and sectors are not shown, so no request is known to be refused so' },
  'ERR-STATUS-409': { reason: 'needs-unshown', why: 'fighter encounters are not shown, so no request is known to open one' },
  'ERR-STATUS-500': { reason: 'not-observable', why: 'a server error is not provoked on purpose' },
  'LIM-ADMIN': { reason: 'needs-unshown', why: 'no admin route is shown' },
} as const satisfies Partial<Record<SentenceId, Untested>>;
