import { RecentItems } from './recent-items.js';

/** What became of a delivered code. */
export type CodeState = 'pending' | 'used' | 'voided' | 'replaced';

export interface OutboxMessage {
  email: string;
  code: string;
  issuedAt: number;
  expiresAt: number;
  state: CodeState;
}

/** The mock's stand-in for email: the last N delivered codes, so tests never parse the console. */
export class Outbox extends RecentItems<OutboxMessage> {}

/** The state a person would see: a pending code past its expiry is expired. */
export function observedState(message: OutboxMessage, now: number): CodeState | 'expired' {
  return message.state === 'pending' && now >= message.expiresAt ? 'expired' : message.state;
}
