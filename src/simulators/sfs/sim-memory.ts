import { hash } from 'node:crypto';
import { rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { boundPageCache, PAGE_CACHE_KIB } from '../../adapters/sqlite-page-cache.js';

/** The SQLite file beside the simulator's CA where it remembers what it registered. */
export const SIM_MEMORY_FILE = 'sfs-sim-memory.sqlite';

/** Bumped when the tables change: a file of another version is emptied (it is a simulator's memory). */
const SCHEMA_VERSION = 1;

// A request's PKP and fingerprint are digested for the look-up, again for the record and again for
// the Uuid: the last few texts' digests are kept (a string compared first by identity, then by
// content: the same text has the same digest, so nothing can go stale).
const recent: Array<[string, string]> = [];
const digest = (text: string): string => {
  for (const [known, value] of recent) if (known === text) return value;
  const value = hash('sha256', text, 'base64');
  recent.unshift([text, value]);
  if (recent.length > 4) recent.pop();
  return value;
};

/**
 * What the simulated SFS remembers of every message it accepted — the receipts it registered (by
 * PKP, with the Id it gave and the message's fingerprint), the receipt numbers taken, the request
 * Uuids used — kept in SQLite as a server keeps them: on disk, across restarts, and not in the
 * process' memory, which stays flat however many documents a register sends (capability 13, figure 6).
 * PKPs and fingerprints are stored as SHA-256 digests; comparing digests is comparing the texts.
 * `:memory:` keeps it in memory (tests that need a blank simulator each time).
 */
export class SimMemory {
  private readonly db: Database.Database;
  private readonly q;
  // Made once: better-sqlite3 builds a new wrapper on every `transaction()` call (capability 13 profile).
  private readonly addReceiptTogether: (
    key: string,
    id: string,
    fingerprint: string,
    numberKey: string,
    uuid: string,
  ) => void;
  private readonly inTransaction: (work: () => unknown) => unknown;

  constructor(path: string) {
    this.db = new Database(path);
    boundPageCache(this.db, PAGE_CACHE_KIB.simulatorMemory);
    this.db.pragma('journal_mode = WAL');
    // A simulator's memory: losing the last registrations to a power cut is what a restarted test
    // server does anyway; no flush on the request path.
    this.db.pragma('synchronous = OFF');
    if (this.db.pragma('user_version', { simple: true }) !== SCHEMA_VERSION) {
      this.db.exec(
        'DROP TABLE IF EXISTS receipts; DROP TABLE IF EXISTS numbers; DROP TABLE IF EXISTS uuids;',
      );
      this.db.pragma(`user_version = ${SCHEMA_VERSION}`);
    }
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS receipts (
        pkp TEXT PRIMARY KEY, id TEXT NOT NULL, fingerprint TEXT NOT NULL, uuid TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS numbers (number_key TEXT PRIMARY KEY, pkp TEXT NOT NULL) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS uuids (uuid TEXT PRIMARY KEY, fingerprint TEXT NOT NULL) WITHOUT ROWID;
    `);
    const db = this.db;
    this.q = {
      receipt: db.prepare('SELECT id, fingerprint, uuid FROM receipts WHERE pkp = ?'),
      number: db.prepare('SELECT 1 FROM numbers WHERE number_key = ?').pluck(),
      addReceipt: db.prepare('INSERT INTO receipts (pkp, id, fingerprint, uuid) VALUES (?, ?, ?, ?)'),
      addNumber: db.prepare('INSERT INTO numbers (number_key, pkp) VALUES (?, ?)'),
      uuid: db.prepare('SELECT fingerprint FROM uuids WHERE uuid = ?').pluck(),
      setUuid: db.prepare(
        'INSERT INTO uuids (uuid, fingerprint) VALUES (?, ?) ON CONFLICT (uuid) DO UPDATE SET fingerprint = excluded.fingerprint',
      ),
    };
    const q = this.q;
    this.addReceiptTogether = db.transaction((key, id, fingerprint, numberKey, uuid) => {
      q.addReceipt.run(key, id, fingerprint, uuid);
      q.addNumber.run(numberKey, key);
    });
    this.inTransaction = db.transaction((work: () => unknown) => work());
  }

  /**
   * Opens (creating) the memory at `path`. It runs with `synchronous=OFF`, so a power cut can leave
   * a file SQLite cannot read; a simulator's memory is not worth a register that will not start
   * (demo `kasa serve` embeds it): such a file is deleted and the simulator starts empty, with a
   * warning through `warn` — as the register's own index does (ADR 1102).
   */
  static open(path: string, warn: (line: string) => void = () => undefined): SimMemory {
    try {
      return new SimMemory(path);
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      if (path === ':memory:' || typeof code !== 'string' || !/^SQLITE_(NOTADB|CORRUPT)/.test(code)) throw e;
      warn(
        `sfs-sim: its memory ${path} is unreadable (${code}); it starts empty and forgets the receipts it registered before`,
      );
      for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
      return new SimMemory(path);
    }
  }

  /**
   * The receipt registered under this PKP: its Id, whether `fingerprint` is the same document and
   * the request Uuid it was registered with.
   */
  receipt(pkp: string, fingerprint: string): { id: string; same: boolean; uuid: string } | undefined {
    const row = this.q.receipt.get(digest(pkp)) as
      | { id: string; fingerprint: string; uuid: string }
      | undefined;
    return row && { id: row.id, same: row.fingerprint === digest(fingerprint), uuid: row.uuid };
  }

  numberTaken(numberKey: string): boolean {
    return this.q.number.get(numberKey) !== undefined;
  }

  addReceipt(pkp: string, id: string, fingerprint: string, numberKey: string, uuid: string): void {
    // Inside a request's transaction the two rows go in as they are (a nested transaction would be
    // a savepoint of its own); alone, in one transaction of their own.
    if (this.db.inTransaction) {
      this.q.addReceipt.run(digest(pkp), id, digest(fingerprint), uuid);
      this.q.addNumber.run(numberKey, digest(pkp));
    } else {
      this.addReceiptTogether(digest(pkp), id, digest(fingerprint), numberKey, uuid);
    }
  }

  /** Whether request `uuid` was accepted for another message than the one `fingerprint` describes. */
  uuidHeldByOther(uuid: string, fingerprint: string): boolean {
    const held = this.q.uuid.get(uuid.toLowerCase()) as string | undefined;
    return held !== undefined && held !== digest(fingerprint);
  }

  /** After a message was accepted: request `uuid` now stands for it (by its digest). */
  rememberUuid(uuid: string, fingerprint: string): void {
    this.q.setUuid.run(uuid.toLowerCase(), digest(fingerprint));
  }

  /**
   * Runs `work` (one request's look-ups and records) in one SQLite transaction: a request that is
   * accepted writes its receipt, its number and its Uuid with one commit instead of two (ADR 1106).
   * A throw rolls back what it wrote. Nested calls (e.g. `addReceipt`) become savepoints.
   */
  transaction<T>(work: () => T): T {
    return this.inTransaction(work) as T;
  }

  /** Forgets the request Uuids only (the careful checks' reset). */
  clearUuids(): void {
    this.db.exec('DELETE FROM uuids;');
  }

  clear(): void {
    this.db.exec('DELETE FROM receipts; DELETE FROM numbers; DELETE FROM uuids;');
  }

  /** The page cache SQLite may keep for this memory, in KiB (ADR 1112). */
  pageCacheKib(): number {
    return -Number(this.db.pragma('cache_size', { simple: true }));
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
