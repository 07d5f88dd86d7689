import type Database from 'better-sqlite3';

/**
 * Schema of the derived index (`<data-dir>/index.sqlite`, ADR 0008 §14). Derived data only: a
 * version change drops everything and the next start rebuilds it from the CHDÚ.
 */
// 2: receipt UUIDs compared without case by the column itself, so lookups use its index (ADR
// 0113); the chain hash of record 1 kept as the journal's identity (ADR 0108).
// 3: creation instant and first attempt of documents and locations (offline report filters and
// the resend deadline, ADR 0700/0702).
// 4: whether a failed print of the original reached the printer (the drawer kick never repeats,
// ADR 0507).
// 5: whether a failed print of the original sent its drawer kick, nothing else confirmed (ADR 0517).
// 6: the form the original was handed over in, so copies show the same (ADR 0713).
export const INDEX_SCHEMA_VERSION = 6;

/**
 * A document's creation instant (Unix seconds) from its stored SFS CreateDate: the admin's document
 * list filters by it (capability 12) through the expression index below.
 */
export const DOCUMENT_CREATED_SQL = "unixepoch(json_extract(body, '$.sfs.CreateDate'))";

/**
 * Part of the schema, so it is kept up as documents are applied: created on an index of a million
 * documents at start-up it would take seconds before the first answer (capability 13, figure 3). An
 * index made before it existed gets it when the document list opens (`CREATE … IF NOT EXISTS`).
 */
export const DOCUMENTS_CREATED_INDEX = `CREATE INDEX IF NOT EXISTS documents_created ON documents (${DOCUMENT_CREATED_SQL})`;

const TABLES = ['meta', 'merchants', 'documents', 'document_codes', 'locations', 'settings', 'record_types'];

const DDL = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE merchants (record_no INTEGER PRIMARY KEY, body TEXT NOT NULL);
CREATE TABLE documents (
  document_no INTEGER PRIMARY KEY,
  record_no INTEGER NOT NULL UNIQUE,
  seq_year INTEGER, seq_month INTEGER, sequence_id INTEGER,
  external_id TEXT, idempotency_key TEXT, uuid TEXT COLLATE NOCASE,
  body TEXT NOT NULL,
  send_state TEXT NOT NULL, sending_count INTEGER NOT NULL, exchanges INTEGER NOT NULL,
  last_exchange TEXT, accepted TEXT,
  print_state TEXT NOT NULL, last_printer_code INTEGER, print_started INTEGER, drawer_opened INTEGER,
  receipt_form TEXT, repaired_by INTEGER,
  create_ms INTEGER, first_attempt TEXT
);
CREATE INDEX documents_seq ON documents (seq_year, seq_month, sequence_id);
CREATE INDEX documents_external ON documents (external_id);
CREATE INDEX documents_idempotency ON documents (idempotency_key);
CREATE INDEX documents_uuid ON documents (uuid);
CREATE INDEX documents_send ON documents (send_state, document_no);
CREATE INDEX documents_print ON documents (print_state, document_no);
CREATE TABLE document_codes (
  kind TEXT NOT NULL, code TEXT NOT NULL, document_no INTEGER NOT NULL,
  PRIMARY KEY (kind, code)
) WITHOUT ROWID;
CREATE TABLE locations (
  location_no INTEGER PRIMARY KEY,
  record_no INTEGER NOT NULL UNIQUE,
  body TEXT NOT NULL,
  send_state TEXT NOT NULL, sending_count INTEGER NOT NULL, exchanges INTEGER NOT NULL,
  last_exchange TEXT, accepted TEXT, repaired_by INTEGER,
  create_ms INTEGER, first_attempt TEXT
);
CREATE INDEX locations_send ON locations (send_state, location_no);
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE record_types (type TEXT PRIMARY KEY, count INTEGER NOT NULL);
`;

/** True when the database holds an index of this schema version. */
export function hasSchema(db: Database.Database): boolean {
  const hasMeta = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get();
  if (!hasMeta) return false;
  const row = db.prepare("SELECT value FROM meta WHERE key = 'schema'").get() as
    | { value: string }
    | undefined;
  return row?.value === String(INDEX_SCHEMA_VERSION);
}

/** Creates the schema, or recreates it empty when the stored version differs. */
export function ensureSchema(db: Database.Database): void {
  const hasMeta = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get();
  if (hasMeta) {
    const row = db.prepare("SELECT value FROM meta WHERE key = 'schema'").get() as
      | { value: string }
      | undefined;
    if (row?.value === String(INDEX_SCHEMA_VERSION)) return;
  }
  db.transaction(() => {
    for (const t of TABLES) db.exec(`DROP TABLE IF EXISTS ${t}`);
    db.exec(DDL);
    db.exec(DOCUMENTS_CREATED_INDEX);
    const put = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    put.run('schema', String(INDEX_SCHEMA_VERSION));
    put.run('hwm', '0');
  })();
}

/** Every table with its rows in key order: for comparing a rebuilt index with a live one. */
export function dumpTables(db: Database.Database): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const t of TABLES) out[t] = db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2`).all();
  return out;
}
