import type { StoreDocumentInput, ValidatedStoreRequest } from '../../documents/store-request.js';
import type { Clock, IdSource } from '../../ports/clock.js';
import type { Journal } from '../../ports/journal.js';
import type { JournalIndex } from '../../ports/journal-index.js';
import type { ReceiptPrinter } from '../../ports/receipt-printer.js';
import type { ReceiptImageRenderer } from '../../ports/receipt-renderer.js';
import type { TaxAuthority } from '../../ports/tax-authority.js';
import type { UsableMerchant } from '../merchant-session.js';
import type { SfsHealth } from '../sfs-health.js';
import type { WriteLock } from '../write-lock.js';

/** What the document use cases (store, cash, get, print) need; wired once in compose. */
export interface DocumentDeps {
  /** Appends also update the index (IndexedJournal). */
  journal: Journal;
  index: JournalIndex;
  lock: WriteLock;
  merchant: { currentSigner(): UsableMerchant };
  sfs: TaxAuthority;
  /** The online limit (`--sfs-timeout-ms`). */
  sfsTimeoutMs: number;
  swId: string;
  sfsHealth: SfsHealth;
  printer: ReceiptPrinter;
  renderer: ReceiptImageRenderer;
  clock: Clock;
  ids: IdSource;
  /**
   * The QR payment check of the store path (ADR 0907): every `qrPayments` id PAID with exactly its
   * amount and unused. Without it a request naming QR payments is refused.
   */
  qrTender?: (input: StoreDocumentInput, request: ValidatedStoreRequest) => ValidatedStoreRequest;
}

/** Stored settings the document flow reads (defaults when unset). */
export const DOCUMENT_SETTINGS = {
  /**
   * Send VK/VY to the SFS. The API v1.7 text says they are sent (default true); Act 384/2025
   * ended sending them from 1 Jan 2026, so a shop may switch it off (docs/documents.md).
   */
  sendCashDocuments: true,
} as const;

export function sendCashDocuments(index: JournalIndex): boolean {
  const value = index.settings().sendCashDocuments;
  return typeof value === 'boolean' ? value : DOCUMENT_SETTINGS.sendCashDocuments;
}
