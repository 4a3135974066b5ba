import { DatabaseSync } from 'node:sqlite';

/** Written in the meta table, so that another SQLite file is never taken for a state file. */
const FORMAT = 'game-service-state';

/** Migrations by the schema version they lead to; a file at version N runs those after N, in order. */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE players (id TEXT PRIMARY KEY, record TEXT NOT NULL);
   CREATE TABLE tokens (token TEXT PRIMARY KEY, player_id TEXT NOT NULL, issued_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, serial INTEGER NOT NULL);
   CREATE TABLE outbox (id INTEGER PRIMARY KEY, email TEXT NOT NULL, code TEXT NOT NULL, issued_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, state TEXT NOT NULL);
   CREATE TABLE codes (email TEXT PRIMARY KEY, salt BLOB NOT NULL, hash BLOB NOT NULL, issued_at INTEGER NOT NULL, expires_at INTEGER NOT NULL,
     wrong_attempts INTEGER NOT NULL, voided INTEGER NOT NULL, message_id INTEGER NOT NULL);
   INSERT INTO meta VALUES ('format', '${FORMAT}');`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** A state file that cannot be used as it is; the CLI exits 2 with this message. */
export class StateFileError extends Error {
  constructor(path: string, why: string) {
    super(`state file ${path}: ${why}`);
    this.name = 'StateFileError';
  }
}

function isBusy(error: unknown): boolean {
  return (error as { errcode?: number }).errcode === 5;
}

function tableCount(db: DatabaseSync): number {
  return (db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number }).n;
}

/** Refuses what is not a state file of a version this build can read; brings an older one up to date. */
function checkAndMigrate(db: DatabaseSync, path: string): void {
  const version = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
  if (version === 0 && tableCount(db) > 0) throw new StateFileError(path, 'is an SQLite database, but not a game-service state file; name a new file');
  if (version > 0) {
    const format = db.prepare("SELECT value FROM meta WHERE key = 'format'").get() as { value: string } | undefined;
    if (format?.value !== FORMAT) throw new StateFileError(path, 'is an SQLite database, but not a game-service state file; name a new file');
  }
  if (version > SCHEMA_VERSION) {
    throw new StateFileError(path, `has schema version ${version}, written by a newer game-service; this one reads up to version ${SCHEMA_VERSION}`);
  }
  if (version === SCHEMA_VERSION) return;
  db.exec('BEGIN IMMEDIATE');
  for (const migration of MIGRATIONS.slice(version)) db.exec(migration);
  db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}; COMMIT`);
}

/**
 * Opens (or creates) a state file for this process alone: WAL for durable commits without a server, and an
 * exclusive lock held until the process ends, so that a second mock on the same file is refused.
 */
export function openStateFile(path: string): DatabaseSync {
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(path);
  } catch (error) {
    throw new StateFileError(path, `cannot be opened: ${(error as Error).message}`);
  }
  try {
    db.exec('PRAGMA locking_mode = EXCLUSIVE');
    db.exec('PRAGMA journal_mode = WAL');
    // A write transaction takes the exclusive lock now, not at the first request.
    db.exec('BEGIN IMMEDIATE; COMMIT');
    checkAndMigrate(db, path);
    db.exec('PRAGMA synchronous = NORMAL');
    return db;
  } catch (error) {
    db.close();
    if (error instanceof StateFileError) throw error;
    if (isBusy(error))
      throw new StateFileError(path, 'is in use by another mock process; a state file belongs to one process (run several on one Redis with --store)');
    throw new StateFileError(path, `cannot be used: ${(error as Error).message}`);
  }
}
