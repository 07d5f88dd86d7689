import { FiscalError } from '../../fiscal-error.js';
import type { PrintOptions } from '../../ports/receipt-printer.js';
import type { DocumentDeps } from './document-deps.js';
import { merchantOf, printerError, printOriginal } from './document-receipt.js';

/**
 * `POST /api/document/print`: prints the original of the last document whose print failed (or
 * never happened). Until it succeeds every CHDÚ-writing request gets 508. 505 when there is
 * nothing to print, or when the last document was delivered electronically.
 */
export class PrintPendingDocument {
  constructor(private readonly deps: DocumentDeps) {}

  async execute(options?: PrintOptions): Promise<{ resultCode: 0 }> {
    return this.deps.lock.run('document/print', async () => {
      const doc = this.deps.index.unprintedDocument();
      if (!doc) {
        const last = this.deps.index.findDocument({ by: 'last' });
        throw new FiscalError(
          'NOTHING_TO_PRINT',
          last?.printState === 'electronic'
            ? 'Last document was electronic.'
            : 'No unprinted document found.',
        );
      }
      const { merchant } = await merchantOf(this.deps, doc);
      // A failed attempt that sent the kick (ADR 0517), or that left part of the receipt on paper
      // (`printStarted`, ADR 0507; an older print record has `partialPrint` without
      // `drawerOpened`), opened the drawer already: printing again never kicks twice, also after
      // a restart (docs/printing.md).
      const failure = await printOriginal(
        this.deps,
        doc,
        merchant,
        doc.document.openDrawer,
        options,
        doc.printStarted === true || doc.drawerOpened === true,
      );
      if (failure !== undefined) {
        throw printerError(
          failure.printerCode,
          `Document ${doc.document.documentNumber} could not be printed (printer code ${failure.printerCode}); fix the printer and try again.`,
          failure.partialPrint === undefined ? {} : { partialPrint: failure.partialPrint },
        );
      }
      return { resultCode: 0 as const };
    });
  }
}
