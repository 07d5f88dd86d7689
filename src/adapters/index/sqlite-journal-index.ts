import { mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { paragonKey } from '../../core/documents/paragon-key.js';
import { FiscalError } from '../../core/fiscal-error.js';
import {
  afterAttemptStarted,
  afterExchange,
  afterPrint,
  afterRepair,
  NEW_SEND_TRACK,
  type SendTrack,
} from '../../core/journal/derived-state.js';
import type {
  DocumentRecord,
  JournalRecord,
  LocationRecord,
  MerchantRecord,
  RepairRecord,
  SfsAttemptRecord,
  SfsExchangeRecord,
} from '../../core/journal/records.js';
import type { DocumentFacts } from '../../core/ports/document-index.js';
import type {
  DocumentQuery,
  IndexedDocument,
  IndexedLocation,
  JournalIndex,
  QueueEntry,
  RecordOf,
} from '../../core/ports/journal-index.js';
import type { MerchantIdentityRow } from '../../core/ports/merchant-index.js';
import type { OfflineReportPage, OfflineReportQuery } from '../../core/ports/offline-report-index.js';
import type { QueueSummary } from '../../core/ports/send-queue-index.js';
import { parseSfsDateTime } from '../../core/time.js';
import { boundPageCache, PAGE_CACHE_KIB } from '../sqlite-page-cache.js';
import { type DocRow, type LocRow, sendTrack, toDocument, toLocation } from './sqlite-index-rows.js';
import { ensureSchema, hasSchema } from './sqlite-index-schema.js';
import { SqliteOfflineQueries } from './sqlite-offline-queries.js';

const DOCUMENT_NUMBER = /^(\d{4})(\d{2})\/(\d+)$/;
const CHAIN_CHECK_KEY = 'chain_check';

/**
 * The SQL of each document lookup (exported so a test can check every one is an index search).
 * The receipt UUID column is `COLLATE NOCASE` itself, so `uuid = ?` both ignores case and uses
 * `documents_uuid` (ADR 0113).
 */
export const DOCUMENT_LOOKUPS = {
  documentNo: 'SELECT * FROM documents WHERE document_no = ?',
  sequenceId:
    'SELECT * FROM documents WHERE seq_year = ? AND seq_month = ? AND sequence_id = ? ORDER BY document_no DESC LIMIT 1',
  externalId: 'SELECT * FROM documents WHERE external_id = ? ORDER BY document_no DESC LIMIT 1',
  code: 'SELECT d.* FROM document_codes c JOIN documents d ON d.document_no = c.document_no WHERE c.kind = ? AND c.code = ?',
  uuid: 'SELECT * FROM documents WHERE uuid = ? ORDER BY document_no DESC LIMIT 1',
  idempotencyKey: 'SELECT * FROM documents WHERE idempotency_key = ? ORDER BY document_no DESC LIMIT 1',
  last: 'SELECT * FROM documents ORDER BY document_no DESC LIMIT 1',
} as const;

/**
 * ADR 1115: what the clock check and an outcome event read of a row, its body left as text. The
 * clock check passes over set-aside documents (ADR 0117 amended: never registered, they block
 * nothing, ADR 0711); it walks back from the highest number, and the last row is almost never one.
 */
export const DOCUMENT_ROW_READS = {
  lastCreated:
    "SELECT document_no, create_ms FROM documents WHERE send_state <> 'set-aside' ORDER BY document_no DESC LIMIT 1",
  facts: `SELECT json_extract(body, '$.documentNumber') AS number, json_extract(body, '$.sfs.ReceiptType') AS type,
    json_extract(body, '$.externalId') AS external FROM documents WHERE document_no = ?`,
} as const;

/**
 * The journal index in SQLite (better-sqlite3, WAL, synchronous=NORMAL) at `<data-dir>/index.sqlite`.
 * Derived from the journal only: `apply()` is fed every record in order, and each apply commits
 * together with the new high-water mark, so a crash leaves a consistent prefix to replay onto.
 * A commit is not flushed to the disk on its own (ADR 1100): the CHDÚ record it follows already is,
 * and what a power cut takes from the end of the index is replayed from the CHDÚ at the next start.
 */
export class SqliteJournalIndex implements JournalIndex {
  private readonly db: Database.Database;
  private readonly q;
  /** Statements prepared once (ADR 1100: nothing per request that a statement cache saves). */
  private readonly statements = new Map<string, Database.Statement>();
  /** The high-water mark as last read or committed; forgotten by a failed write and by clear(). */
  private hwm: number | undefined;
  /** The merchant in force and the merged settings as last read; forgotten when a record changes them. */
  private merchantCache: { value: { recordNo: number; merchant: MerchantRecord } | undefined } | undefined;
  private settingsCache: Record<string, unknown> | undefined;
  private readonly offline: SqliteOfflineQueries;

  private constructor(
    readonly path: string,
    readonly readOnly = false,
  ) {
    this.db = new Database(path, readOnly ? { readonly: true, fileMustExist: true } : {});
    boundPageCache(this.db, PAGE_CACHE_KIB.journalIndex);
    if (!readOnly) {
      this.db.pragma('journal_mode = WAL');
      // ADR 1100: WAL + NORMAL is consistent after any crash; durability comes from the CHDÚ.
      this.db.pragma('synchronous = NORMAL');
      ensureSchema(this.db);
    } else if (!hasSchema(this.db)) {
      this.db.close();
      throw new Error(`${path} is not a kasa index of this version`);
    }
    const db = this.db;
    this.q = {
      meta: db.prepare('SELECT value FROM meta WHERE key = ?').pluck(),
      setMeta: db.prepare(
        'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      ),
      // The mark and its hash in one statement: written once per transaction.
      setMark: db.prepare(`INSERT INTO meta (key, value) VALUES ('hwm', ?), ('hwm_hash', ?)
        ON CONFLICT (key) DO UPDATE SET value = excluded.value`),
      countType: db.prepare(
        'INSERT INTO record_types (type, count) VALUES (?, ?) ON CONFLICT (type) DO UPDATE SET count = count + ?',
      ),
      insMerchant: db.prepare('INSERT INTO merchants (record_no, body) VALUES (?, ?)'),
      insDoc:
        db.prepare(`INSERT INTO documents (document_no, record_no, seq_year, seq_month, sequence_id, external_id,
        idempotency_key, uuid, body, send_state, sending_count, exchanges, print_state, create_ms)
        VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, 0, 0, 'pending', ?)`),
      insCode: db.prepare('INSERT OR REPLACE INTO document_codes (kind, code, document_no) VALUES (?, ?, ?)'),
      delParagonCode: db.prepare("DELETE FROM document_codes WHERE kind = 'paragon' AND document_no = ?"),
      insCodeKept: db.prepare(
        'INSERT OR IGNORE INTO document_codes (kind, code, document_no) VALUES (?, ?, ?)',
      ),
      doc: db.prepare('SELECT * FROM documents WHERE document_no = ?'),
      lastCreated: db.prepare(DOCUMENT_ROW_READS.lastCreated),
      facts: db.prepare(DOCUMENT_ROW_READS.facts),
      // What applying an exchange, an attempt or a print reads of a row: its counters and states,
      // never the body or the JSON of earlier exchanges (the rules need neither; see applyExchange).
      docSend: db.prepare(
        'SELECT document_no, send_state, sending_count, exchanges FROM documents WHERE document_no = ?',
      ),
      docPrint: db.prepare(
        'SELECT document_no, print_state, last_printer_code, print_started, drawer_opened, receipt_form FROM documents WHERE document_no = ?',
      ),
      locSend: db.prepare(
        'SELECT location_no, send_state, sending_count, exchanges FROM locations WHERE location_no = ?',
      ),
      // accepted and uuid are only ever set by an acceptance and never cleared (afterExchange keeps
      // the first): an exchange that does not accept leaves both as they are.
      setDocSend:
        db.prepare(`UPDATE documents SET send_state = ?, sending_count = ?, exchanges = ?, last_exchange = ?,
        accepted = COALESCE(?, accepted), uuid = COALESCE(?, uuid), first_attempt = COALESCE(first_attempt, ?)
        WHERE document_no = ?`),
      setDocAttempt: db.prepare(
        'UPDATE documents SET sending_count = ?, first_attempt = COALESCE(first_attempt, ?) WHERE document_no = ?',
      ),
      setLocAttempt: db.prepare(
        'UPDATE locations SET sending_count = ?, first_attempt = COALESCE(first_attempt, ?) WHERE location_no = ?',
      ),
      setDocPrint: db.prepare(
        'UPDATE documents SET print_state = ?, last_printer_code = ?, print_started = ?, drawer_opened = ?, receipt_form = ? WHERE document_no = ?',
      ),
      setDocRepair: db.prepare(
        'UPDATE documents SET body = ?, send_state = ?, repaired_by = ?, create_ms = ? WHERE document_no = ?',
      ),
      insLoc:
        db.prepare(`INSERT INTO locations (location_no, record_no, body, send_state, sending_count, exchanges,
        create_ms) VALUES (?, ?, ?, 'unsent', 0, 0, ?)`),
      loc: db.prepare('SELECT * FROM locations WHERE location_no = ?'),
      setLocSend:
        db.prepare(`UPDATE locations SET send_state = ?, sending_count = ?, exchanges = ?, last_exchange = ?,
        accepted = COALESCE(?, accepted), first_attempt = COALESCE(first_attempt, ?) WHERE location_no = ?`),
      setLocRepair: db.prepare(
        'UPDATE locations SET body = ?, send_state = ?, repaired_by = ?, create_ms = ? WHERE location_no = ?',
      ),
      merchant: db.prepare('SELECT body FROM merchants WHERE record_no = ?').pluck(),
      // One row per distinct identity, in the order first stored (ADR 0422).
      merchantIdentities: db.prepare(`SELECT code, ico, icDph, certificate FROM (
          SELECT json_extract(body, '$.organizationUnit.cashRegisterCode') AS code,
            json_extract(body, '$.ico') AS ico, json_extract(body, '$.icDph') AS icDph,
            json_extract(body, '$.certificate') AS certificate, MIN(record_no) AS first
          FROM merchants GROUP BY code, ico, icDph, certificate) ORDER BY first`),
      lastStuckLocation: db.prepare(
        "SELECT * FROM locations WHERE send_state = 'stuck' ORDER BY location_no DESC LIMIT 1",
      ),
      putSetting: db.prepare(
        'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      ),
      delSetting: db.prepare('DELETE FROM settings WHERE key = ?'),
    };
    this.offline = new SqliteOfflineQueries(db);
    // Built once (ADR 1110): better-sqlite3 makes a new wrapper, and its BEGIN/COMMIT statements'
    // controller, for every db.transaction(fn) call.
    this.applyTransaction = db.transaction((entries: ApplyEntries) => this.applyInTransaction(entries));
  }

  private readonly applyTransaction: (entries: ApplyEntries) => number;

  /**
   * Opens (creating) the index. A file SQLite cannot read is deleted and recreated empty: the
   * index is derived, the next sync rebuilds it from the CHDÚ (ADR 0008 §14).
   */
  static open(path: string): SqliteJournalIndex {
    mkdirSync(dirname(path), { recursive: true });
    try {
      return new SqliteJournalIndex(path);
    } catch (e) {
      const code = (e as { code?: string }).code ?? '';
      if (!/^SQLITE_(NOTADB|CORRUPT)/.test(code)) throw e;
      for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
      return new SqliteJournalIndex(path);
    }
  }

  /**
   * Opens an existing index for reading only (the `kasa chdu` commands beside a running serve);
   * undefined when there is none, or it is of another schema version.
   */
  static openReadOnly(path: string): SqliteJournalIndex | undefined {
    try {
      return new SqliteJournalIndex(path, true);
    } catch {
      return undefined;
    }
  }

  highWaterMark(): number {
    // Asked several times per record written (ADR 0108 guard, numbering): kept until the next
    // write of this index; a read-only index (beside a running serve) always reads it anew.
    if (this.readOnly) return Number(this.q.meta.get('hwm') ?? 0);
    this.hwm ??= Number(this.q.meta.get('hwm') ?? 0);
    return this.hwm;
  }

  highWaterHash(): string | undefined {
    return (this.q.meta.get('hwm_hash') as string | undefined) ?? undefined;
  }

  genesisHash(): string | undefined {
    return (this.q.meta.get('genesis') as string | undefined) ?? undefined;
  }

  apply(record: JournalRecord, chainHash: string): void {
    this.applyMany([{ record, chainHash }]);
  }

  /** One transaction; the mark, its hash and the type counts are written once at its end. */
  applyMany(entries: ApplyEntries): void {
    if (entries.length === 0) return;
    this.writing(() => this.applyManyNow(entries));
  }

  private applyManyNow(entries: ApplyEntries): void {
    // This connection is the index's only writer (the data dir is locked to one kasa), so the mark
    // it holds in memory is the one in the file: read once, moved only by a committed transaction.
    // After a throw the mark is read again from the file: a COMMIT can report an I/O error after
    // SQLite wrote its frame (ADR 1110).
    try {
      this.hwm = this.applyTransaction(entries);
    } catch (e) {
      this.hwm = undefined;
      throw e;
    }
  }

  /** The body of the apply transaction; returns the new high-water mark. */
  private applyInTransaction(entries: ApplyEntries): number {
    let hwm = this.highWaterMark();
    const counts = new Map<string, number>();
    for (const { record, chainHash } of entries) {
      if (record.recordNo !== hwm + 1) {
        throw new FiscalError('UNKNOWN', `Index expects record ${hwm + 1}, got ${record.recordNo}.`);
      }
      if (record.recordNo === 1) this.q.setMeta.run('genesis', chainHash);
      this.applyBody(record);
      counts.set(record.type, (counts.get(record.type) ?? 0) + 1);
      hwm = record.recordNo;
    }
    for (const [type, n] of counts) this.q.countType.run(type, n, n);
    this.q.setMark.run(String(hwm), entries.at(-1)!.chainHash);
    return hwm;
  }

  clear(): void {
    this.writing(() => this.clearNow());
  }

  private clearNow(): void {
    this.forget();
    this.db.transaction(() => {
      for (const t of ['merchants', 'documents', 'document_codes', 'locations', 'settings', 'record_types']) {
        this.db.exec(`DELETE FROM ${t}`);
      }
      this.db.exec(`DELETE FROM meta WHERE key IN ('hwm_hash', 'genesis', '${CHAIN_CHECK_KEY}')`);
      this.q.setMeta.run('hwm', '0');
    })();
    this.forget();
  }

  /**
   * The whole-chain check's progress (ADR 0115) as the JSON the consistency check keeps: derived
   * data like the rest, dropped by clear() so a rebuilt index starts a new pass.
   */
  chainCheckProgress(): string | undefined {
    return (this.q.meta.get(CHAIN_CHECK_KEY) as string | undefined) ?? undefined;
  }

  setChainCheckProgress(json: string): void {
    this.writing(() => this.q.setMeta.run(CHAIN_CHECK_KEY, json));
  }

  /**
   * ADR 0116: what SQLite says when it cannot write becomes a storage answer — a full disk (or
   * a quota, SQLITE_FULL) 202, any other I/O failure 201 — naming the index file. The transaction
   * is rolled back whole, so the index stays a consistent prefix the next sync continues.
   */
  private writing<T>(work: () => T): T {
    try {
      return work();
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      if (typeof code !== 'string' || !code.startsWith('SQLITE_')) throw e;
      if (code === 'SQLITE_FULL') {
        throw new FiscalError(
          'CHDU_WRITE_LIMIT',
          `The disk holding the index ${this.path} is full (SQLITE_FULL). The CHDÚ keeps every record; free space on that disk and kasa brings the index up to date by itself.`,
          { index: this.path, sqlite: code },
          { cause: e },
        );
      }
      if (/^SQLITE_(IOERR|CANTOPEN|READONLY|CORRUPT|NOTADB|PERM)/.test(code)) {
        throw new FiscalError(
          'CHDU_WRITE_ERROR',
          `The index ${this.path} cannot be written (${code}). The CHDÚ keeps every record; stop kasa and check the disk, then run kasa chdu reindex if the file is damaged.`,
          { index: this.path, sqlite: code },
          { cause: e },
        );
      }
      throw e;
    }
  }

  currentMerchant(): { recordNo: number; merchant: MerchantRecord } | undefined {
    // Read on every document and look-up; parsed once per merchant record (frozen: shared).
    if (!this.readOnly && this.merchantCache !== undefined) return this.merchantCache.value;
    const row = this.sql('SELECT record_no, body FROM merchants ORDER BY record_no DESC LIMIT 1').get() as
      | { record_no: number; body: string }
      | undefined;
    const value = row
      ? deepFreeze({ recordNo: row.record_no, merchant: JSON.parse(row.body) as MerchantRecord })
      : undefined;
    if (!this.readOnly) this.merchantCache = { value };
    return value;
  }

  lastSequenceId(year: number, month: number): number {
    const v = this.sql(
      'SELECT MAX(sequence_id) FROM documents WHERE seq_year = ? AND seq_month = ?',
      true,
    ).get(year, month);
    return Number(v ?? 0);
  }

  lastDocumentNo(): number {
    return Number(this.sql('SELECT MAX(document_no) FROM documents', true).get() ?? 0);
  }

  lastLocationNo(): number {
    return Number(this.sql('SELECT MAX(location_no) FROM locations', true).get() ?? 0);
  }

  lastDocumentCreated(): { documentNo: number; createMs: number | null } | undefined {
    const row = this.q.lastCreated.get() as { document_no: number; create_ms: number | null } | undefined;
    return row ? { documentNo: row.document_no, createMs: row.create_ms } : undefined;
  }

  documentFacts(documentNo: number): DocumentFacts | undefined {
    const row = this.q.facts.get(documentNo) as
      | { number: string; type: string; external: string | null }
      | undefined;
    if (!row) return undefined;
    return {
      documentNumber: row.number,
      type: row.type,
      ...(row.external === null ? {} : { externalId: row.external }),
    };
  }

  findDocument(query: DocumentQuery): IndexedDocument | undefined {
    const row = this.findDocRow(query);
    return row ? toDocument(row) : undefined;
  }

  merchantIdentities(): MerchantIdentityRow[] {
    const rows = this.q.merchantIdentities.all() as Array<{
      code: string;
      ico: string | null;
      icDph: string | null;
      certificate: string;
    }>;
    return rows.map((r) => ({
      cashRegisterCode: r.code,
      ...(r.ico === null ? {} : { ico: r.ico }),
      ...(r.icDph === null ? {} : { icDph: r.icDph }),
      certificate: r.certificate,
    }));
  }

  merchantByRecordNo(recordNo: number): MerchantRecord | undefined {
    const body = this.q.merchant.get(recordNo) as string | undefined;
    return body === undefined ? undefined : (JSON.parse(body) as MerchantRecord);
  }

  unsentDocuments(limit = -1): IndexedDocument[] {
    return this.offline.unsentDocuments(limit);
  }

  stuckDocuments(limit = -1): IndexedDocument[] {
    return this.offline.stuckDocuments(limit);
  }

  unprintedDocument(): IndexedDocument | undefined {
    const row = this.sql('SELECT * FROM documents ORDER BY document_no DESC LIMIT 1').get() as
      | DocRow
      | undefined;
    // A stuck or set-aside document is not valid: it is never printed, so it waits for no print.
    if (
      !row ||
      row.send_state === 'stuck' ||
      row.send_state === 'set-aside' ||
      (row.print_state !== 'pending' && row.print_state !== 'failed')
    ) {
      return undefined;
    }
    return toDocument(row);
  }

  lastLocation(): IndexedLocation | undefined {
    const row = this.sql('SELECT * FROM locations ORDER BY location_no DESC LIMIT 1').get() as
      | LocRow
      | undefined;
    return row ? toLocation(row) : undefined;
  }

  findLocation(locationNo: number): IndexedLocation | undefined {
    const row = this.q.loc.get(locationNo) as LocRow | undefined;
    return row ? toLocation(row) : undefined;
  }

  lastStuckLocation(): IndexedLocation | undefined {
    const row = this.q.lastStuckLocation.get() as LocRow | undefined;
    return row ? toLocation(row) : undefined;
  }

  unsentLocations(limit = -1): IndexedLocation[] {
    return this.offline.unsentLocations(limit);
  }

  stuckLocations(limit = -1): IndexedLocation[] {
    return this.offline.stuckLocations(limit);
  }

  sendQueue(limit: number): QueueEntry[] {
    return this.offline.sendQueue(limit);
  }

  hasUnsent(): boolean {
    return this.offline.hasUnsent();
  }

  unsentNumbers(limit: number): { documents: number[]; locations: number[] } {
    return this.offline.unsentNumbers(limit);
  }

  setAsideItems(limit: number): QueueEntry[] {
    return this.offline.setAsideItems(limit);
  }

  queueSummary(): QueueSummary {
    return this.offline.queueSummary();
  }

  lastStoredRequest(): QueueEntry | undefined {
    return this.offline.lastStoredRequest();
  }

  stuckLastRequest(): QueueEntry | undefined {
    return this.offline.stuckLastRequest();
  }

  offlineReport(query: OfflineReportQuery): OfflineReportPage {
    return this.offline.offlineReport(query);
  }

  oldestOffline(): QueueEntry | undefined {
    return this.offline.oldestOffline();
  }

  currentLogo(): number | undefined {
    const value = Number(this.q.meta.get('logo') ?? 0);
    return value > 0 ? value : undefined;
  }

  settings(): Record<string, unknown> {
    if (!this.readOnly && this.settingsCache !== undefined) return this.settingsCache;
    const rows = this.sql('SELECT key, value FROM settings ORDER BY key').all() as Array<{
      key: string;
      value: string;
    }>;
    const value = deepFreeze(Object.fromEntries(rows.map((r) => [r.key, JSON.parse(r.value) as unknown])));
    if (!this.readOnly) this.settingsCache = value;
    return value;
  }

  recordCount(): number {
    return this.highWaterMark();
  }

  /** Records applied per type. */
  recordCounts(): Record<string, number> {
    const rows = this.sql('SELECT type, count FROM record_types ORDER BY type').all() as Array<{
      type: string;
      count: number;
    }>;
    return Object.fromEntries(rows.map((r) => [r.type, r.count]));
  }

  /** The underlying database, for tests that compare a rebuilt index with a live one. */
  get database(): Database.Database {
    return this.db;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  private applyBody(record: JournalRecord): void {
    switch (record.type) {
      case 'merchant':
        this.merchantCache = undefined;
        this.q.insMerchant.run(record.recordNo, JSON.stringify(record.body));
        return;
      case 'document':
        this.insertDocument(record.recordNo, record.body);
        return;
      case 'location':
        this.q.insLoc.run(
          record.body.locationNo,
          record.recordNo,
          JSON.stringify(record.body),
          createMs(record.body.sfs.CreateDate),
        );
        return;
      case 'sfs-exchange':
        this.applyExchange(record.body);
        return;
      case 'sfs-attempt':
        this.applyAttempt(record.body);
        return;
      case 'print': {
        const row = this.q.docPrint.get(record.body.documentNo) as PrintRow | undefined;
        if (!row) return;
        const current = {
          printState: row.print_state,
          ...(row.last_printer_code === null ? {} : { lastPrinterCode: row.last_printer_code }),
          ...(row.print_started === 1 ? { printStarted: true as const } : {}),
          ...(row.drawer_opened === 1 ? { drawerOpened: true as const } : {}),
          ...(row.receipt_form === null ? {} : { receiptForm: row.receipt_form }),
        };
        const next = afterPrint(current, record.body);
        this.q.setDocPrint.run(
          next.printState,
          next.lastPrinterCode ?? null,
          next.printStarted ? 1 : null,
          next.drawerOpened ? 1 : null,
          next.receiptForm ?? null,
          row.document_no,
        );
        return;
      }
      case 'repair':
        this.applyRepair(record);
        return;
      case 'settings':
        this.settingsCache = undefined;
        for (const [key, value] of Object.entries(record.body.changes)) {
          if (value === null) this.q.delSetting.run(key);
          else this.q.putSetting.run(key, JSON.stringify(value));
        }
        return;
      case 'logo':
        // The logo in force: a logo record without an image removes it (ADR 0509).
        this.q.setMeta.run('logo', record.body.png === undefined ? '0' : String(record.recordNo));
        return;
      default:
        // free-text, print-job: counted only.
        return;
    }
  }

  private insertDocument(recordNo: number, d: DocumentRecord): void {
    const m = DOCUMENT_NUMBER.exec(d.documentNumber);
    this.q.insDoc.run(
      d.documentNo,
      recordNo,
      m ? Number(m[1]) : null,
      m ? Number(m[2]) : null,
      m ? Number(m[3]) : null,
      d.externalId ?? null,
      d.idempotency?.key ?? null,
      JSON.stringify(d),
      d.notSent ? 'not-sent' : 'unsent',
      createMs(d.sfs.CreateDate),
    );
    // OKP is hex: printed and typed in either case (SFS spec §2.2), kept in lower case.
    this.q.insCode.run('okp', d.okp.toLowerCase(), d.documentNo);
    this.q.insCode.run('pkp', d.pkp, d.documentNo);
    // ADR 0907: a QR payment id pays one document; the CHDÚ keeps which, the index finds it.
    for (const qr of d.qrPayments ?? []) this.q.insCode.run('qr', qr.id, d.documentNo);
    this.putParagonCode(d, { replace: false });
  }

  /**
   * ADR 0431: a paragón is found by its number and day, so the same paper is not entered twice.
   * A set-aside one never counts as registered (ADR 0711), so it holds no key: the paper may be
   * entered again. A key another document holds stays with it (the repair refuses such a move).
   */
  private putParagonCode(d: DocumentRecord, options: { replace: boolean; setAside?: boolean }): void {
    if (options.replace) this.q.delParagonCode.run(d.documentNo);
    if (options.setAside) return;
    if (d.sfs.Paragon === 'true' && d.sfs.ParagonNumber !== undefined && d.sfs.IssueDate !== undefined) {
      this.q.insCodeKept.run('paragon', paragonKey(d.sfs.ParagonNumber, d.sfs.IssueDate), d.documentNo);
    }
  }

  /**
   * afterExchange reads the state and counters only; the earlier exchanges it would carry along are
   * left in the row. Read without them, `accepted` comes back set only when this exchange is the
   * acceptance, which the update's COALESCE writes; otherwise the row keeps what it had. A test
   * compares the rows with a rebuild through full reads (sqlite-journal-index.test.ts).
   */
  private applyExchange(x: SfsExchangeRecord): void {
    if (x.subject.kind === 'document') {
      const row = this.q.docSend.get(x.subject.documentNo) as SendRow | undefined;
      if (!row) return;
      const t = afterExchange(sendCounters(row), x);
      this.q.setDocSend.run(
        t.sendState,
        t.sendingCount,
        t.exchanges,
        JSON.stringify(x),
        t.accepted ? JSON.stringify(t.accepted) : null,
        t.accepted?.id ?? null,
        x.requestDate,
        x.subject.documentNo,
      );
      return;
    }
    const row = this.q.locSend.get(x.subject.locationNo) as SendRow | undefined;
    if (!row) return;
    const t = afterExchange(sendCounters(row), x);
    const accepted = t.accepted ? JSON.stringify(t.accepted) : null;
    this.q.setLocSend.run(
      t.sendState,
      t.sendingCount,
      t.exchanges,
      JSON.stringify(x),
      accepted,
      x.requestDate,
      x.subject.locationNo,
    );
  }

  private applyAttempt(a: SfsAttemptRecord): void {
    if (a.subject.kind === 'document') {
      const row = this.q.docSend.get(a.subject.documentNo) as SendRow | undefined;
      if (!row) return;
      const t = afterAttemptStarted(sendCounters(row), a);
      this.q.setDocAttempt.run(t.sendingCount, a.requestDate, a.subject.documentNo);
      return;
    }
    const row = this.q.locSend.get(a.subject.locationNo) as SendRow | undefined;
    if (!row) return;
    const t = afterAttemptStarted(sendCounters(row), a);
    this.q.setLocAttempt.run(t.sendingCount, a.requestDate, a.subject.locationNo);
  }

  private applyRepair(record: RecordOf<'repair'>): void {
    const r: RepairRecord = record.body;
    if (r.subject.kind === 'location') {
      const row = this.q.loc.get(r.subject.locationNo) as LocRow | undefined;
      if (!row) return;
      const loc = JSON.parse(row.body) as LocationRecord;
      const repaired: LocationRecord = {
        ...loc,
        ...(r.location ? { sfs: r.location } : {}),
        ...(r.merchantRecordNo === undefined ? {} : { merchantRecordNo: r.merchantRecordNo }),
      };
      this.q.setLocRepair.run(
        JSON.stringify(repaired),
        afterRepair(sendTrack(row), r).sendState,
        record.recordNo,
        createMs(repaired.sfs.CreateDate),
        row.location_no,
      );
      return;
    }
    const row = this.q.doc.get(r.subject.documentNo) as DocRow | undefined;
    if (!row) return;
    const doc = JSON.parse(row.body) as DocumentRecord;
    // A re-dated document is sent with its new data; its number stays (ADR 0008 §5).
    const repaired: DocumentRecord = {
      ...doc,
      ...(r.sfs ? { sfs: r.sfs } : {}),
      ...(r.pkp ? { pkp: r.pkp } : {}),
      ...(r.okp ? { okp: r.okp } : {}),
      ...(r.roundingCents === undefined ? {} : { roundingCents: r.roundingCents }),
      ...(r.merchantRecordNo === undefined ? {} : { merchantRecordNo: r.merchantRecordNo }),
    };
    if (r.okp) this.q.insCode.run('okp', r.okp.toLowerCase(), row.document_no);
    if (r.pkp) this.q.insCode.run('pkp', r.pkp, row.document_no);
    const state = afterRepair(sendTrack(row), r).sendState;
    // A repair may move a paragón's issueDate (fixDocument.issueDate): its key moves with it; one
    // set aside gives its key up.
    if (r.sfs || state === 'set-aside') {
      this.putParagonCode(repaired, { replace: true, setAside: state === 'set-aside' });
    }
    this.q.setDocRepair.run(
      JSON.stringify(repaired),
      state,
      record.recordNo,
      createMs(repaired.sfs.CreateDate),
      row.document_no,
    );
  }

  /** Drops everything kept of the database in memory (a cleared index). */
  private forget(): void {
    this.hwm = undefined;
    this.merchantCache = undefined;
    this.settingsCache = undefined;
  }

  /** The prepared statement of `text` (prepared on first use); `pluck` returns the first column. */
  private sql(text: string, pluck = false): Database.Statement {
    const key = pluck ? `pluck:${text}` : text;
    let statement = this.statements.get(key);
    if (!statement) {
      statement = this.db.prepare(text);
      if (pluck) statement.pluck();
      this.statements.set(key, statement);
    }
    return statement;
  }

  private findDocRow(query: DocumentQuery): DocRow | undefined {
    const one = (sql: string, ...args: unknown[]) => this.sql(sql).get(...args) as DocRow | undefined;
    switch (query.by) {
      case 'documentNo':
        return one(DOCUMENT_LOOKUPS.documentNo, query.documentNo);
      case 'sequenceId':
        return one(DOCUMENT_LOOKUPS.sequenceId, query.year, query.month, query.sequenceId);
      case 'externalId':
        return one(DOCUMENT_LOOKUPS.externalId, query.externalId);
      case 'okp':
      case 'pkp':
        return one(DOCUMENT_LOOKUPS.code, query.by, query.by === 'okp' ? query.okp.toLowerCase() : query.pkp);
      case 'uuid':
        return one(DOCUMENT_LOOKUPS.uuid, query.uuid);
      case 'idempotencyKey':
        return one(DOCUMENT_LOOKUPS.idempotencyKey, query.key);
      case 'qrPaymentId':
        return one(DOCUMENT_LOOKUPS.code, 'qr', query.id);
      case 'paragon':
        return one(DOCUMENT_LOOKUPS.code, 'paragon', query.key);
      case 'last':
        return one(DOCUMENT_LOOKUPS.last);
    }
  }
}

type ApplyEntries = ReadonlyArray<{ record: JournalRecord; chainHash: string }>;

/** The columns applying an exchange or an attempt reads (`docSend`, `locSend`). */
type SendRow = Pick<DocRow, 'send_state' | 'sending_count' | 'exchanges'>;

/** The columns applying a print reads (`docPrint`). */
type PrintRow = Pick<
  DocRow,
  'document_no' | 'print_state' | 'last_printer_code' | 'print_started' | 'drawer_opened' | 'receipt_form'
>;

/** The send track of a row read without its exchanges' JSON (`SendRow`): what the rules read. */
function sendCounters(row: SendRow): SendTrack {
  return {
    ...NEW_SEND_TRACK,
    sendState: row.send_state,
    sendingCount: row.sending_count,
    exchanges: row.exchanges,
  };
}

/** Epoch ms of an SFS dateTime (report filters); null when it cannot be read. */
function createMs(sfsDateTime: string): number | null {
  return parseSfsDateTime(sfsDateTime)?.getTime() ?? null;
}

/** Frozen all the way down: a value handed to every caller must not be changed by one of them. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
