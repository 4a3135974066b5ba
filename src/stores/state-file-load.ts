import type { DatabaseSync } from 'node:sqlite';
import type { ClockState } from '../core/clock.js';
import type { OutboxMessage } from '../core/outbox.js';
import { KEEP_ENDED_MS, type Player, type Store } from '../core/store.js';

interface MessageRow {
  id: number;
  email: string;
  code: string;
  issued_at: number;
  expires_at: number;
  state: OutboxMessage['state'];
}

interface CodeRow {
  email: string;
  salt: Uint8Array;
  hash: Uint8Array;
  issued_at: number;
  expires_at: number;
  wrong_attempts: number;
  voided: number;
  message_id: number;
}

interface TokenRow {
  token: string;
  player_id: string;
  issued_at: number;
  expires_at: number;
  serial: number;
}

export function readClockState(db: DatabaseSync): ClockState | undefined {
  const row = db.prepare("SELECT value FROM meta WHERE key = 'clock'").get() as { value: string } | undefined;
  return row === undefined ? undefined : (JSON.parse(row.value) as ClockState);
}

/** Drops codes and tokens ended longer ago than the store keeps them, and outbox messages past its size. */
function sweep(db: DatabaseSync, now: number, outboxSize: number): void {
  db.prepare('DELETE FROM tokens WHERE expires_at + ? <= ?').run(KEEP_ENDED_MS, now);
  db.prepare('DELETE FROM codes WHERE expires_at + ? <= ?').run(KEEP_ENDED_MS, now);
  db.prepare('DELETE FROM outbox WHERE id <= (SELECT max(id) FROM outbox) - ? AND id NOT IN (SELECT message_id FROM codes)').run(outboxSize);
}

/**
 * Fills the store with the file's records, in the order they were made. Answers the ids of the outbox
 * messages, which the engine needs to update their state later.
 */
export function loadStateFile(db: DatabaseSync, store: Store, now: number, outboxSize: number): Map<OutboxMessage, number> {
  sweep(db, now, outboxSize);
  const messageIds = new Map<OutboxMessage, number>();
  const messages = new Map<number, OutboxMessage>();
  for (const row of db.prepare('SELECT * FROM outbox ORDER BY id').all() as unknown as MessageRow[]) {
    const message: OutboxMessage = { email: row.email, code: row.code, issuedAt: row.issued_at, expiresAt: row.expires_at, state: row.state };
    messages.set(row.id, message);
    messageIds.set(message, row.id);
  }
  const ring = [...messages.values()].slice(-outboxSize);
  for (const message of ring) store.outbox.add(message);
  for (const row of db.prepare('SELECT record FROM players ORDER BY rowid').all() as unknown as { record: string }[]) {
    store.addPlayer(JSON.parse(row.record) as Player);
  }
  let nextSerial = 0;
  for (const player of store.players.values()) nextSerial = Math.max(nextSerial, player.firstValidTokenSerial);
  for (const row of db.prepare('SELECT * FROM tokens ORDER BY serial').all() as unknown as TokenRow[]) {
    store.tokens.set(row.token, { playerId: row.player_id, issuedAt: row.issued_at, expiresAt: row.expires_at, serial: row.serial }, now);
    nextSerial = Math.max(nextSerial, row.serial + 1);
  }
  store.continueTokenSerialsFrom(nextSerial);
  store.continueSequencesFrom(store.players.values());
  for (const row of db.prepare('SELECT * FROM codes ORDER BY issued_at').all() as unknown as CodeRow[]) {
    const message = messages.get(row.message_id)!;
    const code = {
      salt: new Uint8Array(row.salt),
      hash: new Uint8Array(row.hash),
      issuedAt: row.issued_at,
      expiresAt: row.expires_at,
      wrongAttempts: row.wrong_attempts,
      voided: row.voided === 1,
      message,
    };
    store.pendingCodes.set(row.email, code, now);
  }
  return messageIds;
}
