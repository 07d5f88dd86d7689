import type { LogoImages, LogoPicture } from '../../core/ports/logo-images.js';
import type { ReceiptLayout } from '../../core/receipt/receipt-blocks.js';
import { LOGO_REF } from '../../core/services/printing/logo-source.js';
import { encodePng, normalizeLogo, printLogo } from './logo-image.js';
import { type PaperWidthPx, PngReceiptRenderer } from './png-receipt-renderer.js';

/** The PNG renderer keeps 8 px of margin each side: the electronic logo's widest. */
const RECEIPT_MARGINS = 16;

/** {@link LogoImages} with Skia (@napi-rs/canvas) for a paper `paperDots` wide. */
export class CanvasLogoImages implements LogoImages {
  private readonly renderer = new PngReceiptRenderer();

  constructor(private readonly paperDots: PaperWidthPx) {}

  normalize(bytes: Uint8Array): LogoPicture {
    return picture(normalizeLogo(bytes, this.paperDots));
  }

  printed(logo: Uint8Array): LogoPicture {
    return picture(printLogo(logo, this.paperDots));
  }

  electronic(logo: Uint8Array): LogoPicture {
    return picture(normalizeLogo(logo, this.paperDots - RECEIPT_MARGINS));
  }

  onReceipt(layout: ReceiptLayout, logo: Uint8Array, variant: 'PRINT' | 'ELECTRONIC'): LogoPicture {
    const image = variant === 'PRINT' ? this.printed(logo).png : logo;
    const r = this.renderer.render(layout, {
      paperWidthPx: this.paperDots,
      images: new Map([[LOGO_REF, image]]),
    });
    return { png: r.png, width: r.width, height: r.height };
  }
}

function picture(image: { width: number; height: number; data: Uint8Array }): LogoPicture {
  return { png: encodePng(image), width: image.width, height: image.height };
}
