import type { ReceiptLayout } from '../receipt/receipt-blocks.js';

/** A picture: PNG bytes and its size in pixels (dots on paper). */
export interface LogoPicture {
  png: Uint8Array;
  width: number;
  height: number;
}

/**
 * Image work for the logo (`POST /api/image/preview|store`, ADR 0509): decoding any uploaded
 * picture, and showing it as the printer and the electronic receipt will.
 */
export interface LogoImages {
  /**
   * The uploaded picture decoded, flattened on white, blank margins trimmed, scaled down to the
   * paper: the colour logo kasa stores. @throws FiscalError INVALID_INPUT (701) naming `imageData`.
   */
  normalize(bytes: Uint8Array): LogoPicture;
  /** As the printer prints it: black dots only, dithered, trimmed, at most the paper's width. */
  printed(logo: Uint8Array): LogoPicture;
  /** As the electronic receipt shows it: the colour logo at most the receipt's width. */
  electronic(logo: Uint8Array): LogoPicture;
  /** A sample receipt headed by the logo, as printed (`PRINT`) or as an electronic receipt. */
  onReceipt(layout: ReceiptLayout, logo: Uint8Array, variant: 'PRINT' | 'ELECTRONIC'): LogoPicture;
}
