import { FiscalError } from '../../fiscal-error.js';
import type { IndexedDocument } from '../../ports/journal-index.js';

/**
 * ADR 0119: a retry with the same Idempotency-Key whose document's original is not printed —
 * its print failed, or the first request was cut short (a crash) before printing — answers 507
 * DOCUMENT_NOT_PRINTED with the stored object (`document` on store, `cash` on cash), the same on
 * both routes. `printResultCode` is there only when a print was tried and failed: a print that
 * never happened has no printer code. Nothing is printed by the retry (exactly once).
 */
export function unprintedOnReplay(
  doc: IndexedDocument,
  stored: { document: unknown } | { cash: unknown },
): FiscalError | undefined {
  if (doc.printState !== 'failed' && doc.printState !== 'pending') return undefined;
  const number = doc.document.documentNumber;
  const code = doc.printState === 'failed' ? doc.lastPrinterCode : undefined;
  const why =
    doc.printState === 'failed'
      ? `printing its original failed${code === undefined ? '' : ` (printer code ${code})`}`
      : 'its original was never printed (the first request was cut short)';
  return new FiscalError(
    'DOCUMENT_NOT_PRINTED',
    `Document ${number} is stored${doc.sendState === 'online' || doc.sendState === 'offline-sent' ? ' and registered' : ''}, but ${why}; print it with POST /api/document/print.`,
    { ...stored, ...(code === undefined ? {} : { printResultCode: code }) },
  );
}
