import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { isControllable, type Clock, type ControllableClock } from '../core/clock.js';
import type { OutboxMessage } from '../core/outbox.js';
import { StoreUnavailable, type StoreEngine } from '../core/store-engine.js';
import type { Store } from '../core/store.js';
import { StoreChanges, type ChangeSet } from './store-changes.js';
import { loadStateFile, readClockState } from './state-file-load.js';
import { openStateFile } from './state-file-schema.js';

const STATEMENTS = {
  clearPlayers: 'DELETE FROM players',
  clearTokens: 'DELETE FROM tokens',
  clearCodes: 'DELETE FROM codes',
  clearOutbox: 'DELETE FROM outbox WHERE id NOT IN (SELECT message_id FROM codes)',
  putPlayer: 'INSERT INTO players (id, record) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET record = excluded.record',
  deletePlayer: 'DELETE FROM players WHERE id = ?',
  putToken: 'INSERT OR REPLACE INTO tokens VALUES (?, ?, ?, ?, ?)',
  deleteToken: 'DELETE FROM tokens WHERE token = ?',
  addMessage: 'INSERT INTO outbox (email, code, issued_at, expires_at, state) VALUES (?, ?, ?, ?, ?)',
  updateMessage: 'UPDATE outbox SET expires_at = ?, state = ? WHERE id = ?',
  putCode: 'INSERT OR REPLACE INTO codes VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  deleteCode: 'DELETE FROM codes WHERE email = ?',
  putClock: "INSERT OR REPLACE INTO meta VALUES ('clock', ?)",
} as const;

type Statements = Record<keyof typeof STATEMENTS, StatementSync>;

/**
 * `--state FILE`: players, tokens, codes (hashed), ships, action points, the clock and the outbox in an
 * SQLite file. The Store's Maps stay the working copy; each request's touched records are written in one
 * transaction before its answer leaves, so that whatever a client was told survives `kill -9`. Buckets and
 * the journal stay in memory: a window lasts a minute, and writing every counted request would put a disk
 * write on reads that otherwise change nothing.
 */
export class StateFile implements StoreEngine {
  readonly observer = new StoreChanges();
  readonly #db: DatabaseSync;
  readonly #statements: Statements;
  readonly #outboxSize: number;
  #messageIds = new Map<OutboxMessage, number>();
  /** Each player's record as last written, so that a read that changed nothing writes nothing. */
  readonly #written = new Map<string, string>();
  #clock: ControllableClock | undefined;
  #clockWritten = '';

  constructor(path: string, outboxSize: number) {
    this.#db = openStateFile(path);
    this.#outboxSize = outboxSize;
    this.#statements = Object.fromEntries(Object.entries(STATEMENTS).map(([name, sql]) => [name, this.#db.prepare(sql)])) as Statements;
  }

  attach(store: Store, clock: Clock): boolean {
    this.#clock = isControllable(clock) ? clock : undefined;
    const clockState = readClockState(this.#db);
    if (clockState !== undefined) this.#clock?.restore(clockState);
    this.#clockWritten = JSON.stringify(this.#clock?.state);
    this.#messageIds = loadStateFile(this.#db, store, clock.now(), this.#outboxSize);
    this.observer.take();
    for (const [id, player] of store.players) this.#written.set(id, JSON.stringify(player));
    return clockState !== undefined || store.players.size > 0;
  }

  afterRequest(): void {
    const clockState = JSON.stringify(this.#clock?.state);
    if (this.observer.isEmpty && clockState === this.#clockWritten) return;
    const changes = this.observer.take();
    try {
      this.#db.exec('BEGIN');
      this.#write(changes, clockState);
      this.#db.exec('COMMIT');
    } catch (error) {
      if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
      throw new StoreUnavailable(`The state file could not be written: ${(error as Error).message}`);
    }
  }

  close(): void {
    this.#db.close();
  }

  #write(changes: ChangeSet, clockState: string): void {
    const run = this.#statements;
    if (clockState !== this.#clockWritten) run.putClock.run(clockState);
    this.#clockWritten = clockState;
    if (changes.cleared.has('players')) run.clearPlayers.run();
    if (changes.cleared.has('tokens')) run.clearTokens.run();
    if (changes.cleared.has('codes')) run.clearCodes.run();
    if (changes.cleared.has('outbox')) run.clearOutbox.run();
    if (changes.cleared.has('players')) this.#written.clear();
    for (const message of changes.delivered) {
      const added = run.addMessage.run(message.email, message.code, message.issuedAt, message.expiresAt, message.state);
      this.#messageIds.set(message, Number(added.lastInsertRowid));
    }
    for (const code of changes.codeValues) {
      const id = this.#messageIds.get(code.message);
      if (id !== undefined) run.updateMessage.run(code.message.expiresAt, code.message.state, id);
    }
    for (const [id, player] of changes.players) {
      if (player === undefined) {
        run.deletePlayer.run(id);
        this.#written.delete(id);
        continue;
      }
      const record = JSON.stringify(player);
      if (this.#written.get(id) === record) continue;
      run.putPlayer.run(id, record);
      this.#written.set(id, record);
    }
    for (const [token, issued] of changes.tokens) {
      if (issued === undefined) run.deleteToken.run(token);
      else run.putToken.run(token, issued.playerId, issued.issuedAt, issued.expiresAt, issued.serial);
    }
    for (const [email, code] of changes.codes) {
      if (code === undefined) run.deleteCode.run(email);
      else
        run.putCode.run(
          email,
          code.salt,
          code.hash,
          code.issuedAt,
          code.expiresAt,
          code.wrongAttempts,
          code.voided ? 1 : 0,
          this.#messageIds.get(code.message)!,
        );
    }
  }
}
