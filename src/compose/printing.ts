import { CanvasLogoImages } from '../adapters/receipt-image/canvas-logo-images.js';
import type { PaperWidthPx } from '../adapters/receipt-image/png-receipt-renderer.js';
import type { Journal } from '../core/ports/journal.js';
import type { JournalIndex } from '../core/ports/journal-index.js';
import type { LogoImages } from '../core/ports/logo-images.js';
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
 * The printer capability beside the documents (capability 11): the logo read from the CHDÚ, and the
 * use cases and routes of `GET /api/printer`, `POST /api/print`, `POST /api/drawer/open` and
 * `POST /api/image/preview|store`.
 */
export async function composePrinting(w: {
  printer: ReceiptPrinter;
  /** The paper width of the printer in force (the settings may change it, capability 12). */
  paperWidthDots: () => PaperWidthPx;
  /** The `logoEnabled` setting: off, receipts are not headed by the stored logo. */
  logoEnabled?: () => boolean;
  journal: Journal;
  index: JournalIndex;
  lock: WriteLock;
}): Promise<PrintingPart> {
  const logo = new LogoSource(w.journal, w.index, w.logoEnabled);
  await logo.load();
  const images = logoImagesAt(w.paperWidthDots);
  const printer = w.printer;
  return {
    logo,
    routes: [
      printerRoutes({ printer }),
      printRoutes({ print: new PrintFreeText(w) }),
      imageRoutes({
        preview: new PreviewLogo({
          images,
          get charsPerLine() {
            return printer.charsPerLine;
          },
        }),
        store: new StoreLogo({ ...w, logo, images }),
      }),
    ],
  };
}

/** Logo image work at the paper width in force when it is asked for. */
function logoImagesAt(width: () => PaperWidthPx): LogoImages {
  const byWidth = new Map<PaperWidthPx, CanvasLogoImages>();
  const at = (): CanvasLogoImages => {
    const w = width();
    let images = byWidth.get(w);
    if (!images) {
      images = new CanvasLogoImages(w);
      byWidth.set(w, images);
    }
    return images;
  };
  return {
    normalize: (bytes) => at().normalize(bytes),
    printed: (png) => at().printed(png),
    electronic: (png) => at().electronic(png),
    onReceipt: (layout, png, variant) => at().onReceipt(layout, png, variant),
  };
}
