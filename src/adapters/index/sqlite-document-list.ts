import type Database from 'better-sqlite3';
import type { DocumentListIndex, DocumentRange } from '../../core/ports/document-list-index.js';
import type { IndexedDocument, JournalIndex } from '../../core/ports/journal-index.js';
import { DOCUMENT_CREATED_SQL, DOCUMENTS_CREATED_INDEX } from './sqlite-index-schema.js';

/** The instant a document was created, in Unix seconds, from its stored SFS CreateDate. */
const CREATED = DOCUMENT_CREATED_SQL;
const TYPE = "json_extract(body, '$.sfs.ReceiptType')";

/**
 * The document list over the SQLite index (capability 12). Dates are read from the stored document
 * body through an expression index (`documents_created`), created here when missing: the index
 * file stays derived data, and a rebuild (DELETE of the rows) keeps the expression index. Rows are
 * found by SQL and read back through the index's own look-up, so a document reads the same here
 * as everywhere else.
 */
export class SqliteDocumentList implements DocumentListIndex {
  constructor(
    private readonly db: Database.Database,
    private readonly index: Pick<JournalIndex, 'findDocument'>,
  ) {
    // Part of the schema (kept up per document); only an index made before that gets it here, once.
    db.exec(DOCUMENTS_CREATED_INDEX);
  }

  listDocuments(range: DocumentRange, page: { limit: number; beforeDocumentNo?: number }): IndexedDocument[] {
    const { where, args } = whereOf(range, page.beforeDocumentNo);
    const numbers = this.db
      .prepare(`SELECT document_no FROM documents ${where} ORDER BY document_no DESC LIMIT ?`)
      .pluck()
      .all(...args, page.limit) as number[];
    return this.#read(numbers);
  }

  countDocuments(range: DocumentRange): number {
    const { where, args } = whereOf(range, undefined);
    return Number(
      this.db
        .prepare(`SELECT COUNT(*) FROM documents ${where}`)
        .pluck()
        .get(...args),
    );
  }

  documentsIn(range: DocumentRange): IndexedDocument[] {
    const { where, args } = whereOf(range, undefined);
    const numbers = this.db
      .prepare(`SELECT document_no FROM documents ${where} ORDER BY document_no`)
      .pluck()
      .all(...args) as number[];
    return this.#read(numbers);
  }

  #read(numbers: number[]): IndexedDocument[] {
    return numbers.flatMap((documentNo) => {
      const doc = this.index.findDocument({ by: 'documentNo', documentNo });
      return doc ? [doc] : [];
    });
  }
}

function whereOf(range: DocumentRange, before: number | undefined): { where: string; args: unknown[] } {
  const parts: string[] = [];
  const args: unknown[] = [];
  if (range.from) {
    parts.push(`${CREATED} >= ?`);
    args.push(Math.floor(range.from.getTime() / 1000));
  }
  if (range.to) {
    parts.push(`${CREATED} < ?`);
    args.push(Math.ceil(range.to.getTime() / 1000));
  }
  if (range.types && range.types.length > 0) {
    parts.push(`${TYPE} IN (${range.types.map(() => '?').join(', ')})`);
    args.push(...range.types);
  }
  if (range.sendStates && range.sendStates.length > 0) {
    parts.push(`send_state IN (${range.sendStates.map(() => '?').join(', ')})`);
    args.push(...range.sendStates);
  }
  if (before !== undefined) {
    parts.push('document_no < ?');
    args.push(before);
  }
  return { where: parts.length === 0 ? '' : `WHERE ${parts.join(' AND ')}`, args };
}
