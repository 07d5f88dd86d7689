import type { StoreDocumentInput, ValidatedStoreRequest } from '../../documents/store-request.js';
import type { SendClaims } from '../../offline/send-claims.js';
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
  /**
   * The SwId in force, asked on every attempt (SwIdSource, ADR 0421): the configured one, or the
   * one derived once the CHDÚ has told its version; throws 200 before that.
   */
  swId: () => string;
  sfsHealth: SfsHealth;
  printer: ReceiptPrinter;
  renderer: ReceiptImageRenderer;
  /** The stored logo heading every receipt (ADR 0509); none when absent. */
  logo?: { images(): ReadonlyMap<string, Uint8Array> };
  clock: Clock;
  ids: IdSource;
  /** Items with a send attempt in flight (shared with the background sender, capability 10). */
  claims?: SendClaims;
  /**
   * The receipt header and footer settings (capability 12): printed on a PD, UF or ND whose request
   * has none of its own. Absent: none.
   */
  receiptTexts?: () => { header: string | null; footer: string | null };
  /**
   * The QR payment check of the store path (ADR 0907): every `qrPayments` id PAID with exactly its
   * amount and unused. Without it a request naming QR payments is refused.
   */
  qrTender?: (input: StoreDocumentInput, request: ValidatedStoreRequest) => ValidatedStoreRequest;
}
