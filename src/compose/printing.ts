import { CanvasLogoImages } from '../adapters/receipt-image/canvas-logo-images.js';
import type { PaperWidthPx } from '../adapters/receipt-image/png-receipt-renderer.js';
import type { Journal } from '../core/ports/journal.js';
import type { JournalIndex } from '../core/ports/journal-index.js';
import type { ReceiptPrinter } from '../core/ports/receipt-printer.js';
import { LogoSource } from '../core/services/printing/logo-source.js';
import { PreviewLogo } from '../core/services/printing/preview-logo.js';
import { PrintFreeText } from '../core/services/printing/print-free-text.js';
import { StoreLogo } from '../core/services/printing/store-logo.js';
import type { WriteLock } from '../core/services/write-lock.js';
import type { RoutePlugin } from '../http/app.js';
import { imageRoutes } from '../http/routes/image.js';
import { printRoutes } from '../http/routes/print.js';
import { printerRoutes } from '../http/routes/printer.js';

export interface PrintingPart {
  /** The logo in force, read from the CHDÚ at start (documents print and render with it). */
  logo: LogoSource;
  routes: RoutePlugin[];
}

/**
 * The printer capability beside the documents (issue 11): the logo read from the CHDÚ, and the
 * use cases and routes of `GET /api/printer`, `POST /api/print`, `POST /api/drawer/open` and
 * `POST /api/image/preview|store`.
 */
export async function composePrinting(w: {
  printer: ReceiptPrinter;
  paperWidthDots: PaperWidthPx;
  journal: Journal;
  index: JournalIndex;
  lock: WriteLock;
}): Promise<PrintingPart> {
  const logo = new LogoSource(w.journal, w.index);
  await logo.load();
  const images = new CanvasLogoImages(w.paperWidthDots);
  return {
    logo,
    routes: [
      printerRoutes({ printer: w.printer }),
      printRoutes({ print: new PrintFreeText(w) }),
      imageRoutes({
        preview: new PreviewLogo({ images, charsPerLine: w.printer.charsPerLine }),
        store: new StoreLogo({ ...w, logo, images }),
      }),
    ],
  };
}
