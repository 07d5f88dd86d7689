import type { ReceiptLayout } from '../receipt/receipt-blocks.js';

/**
 * Renders a laid-out receipt as an image: the electronic receipt (same content as paper).
 * `images` resolves the layout's `image` blocks (the stored logo as PNG under `logo`).
 */
export interface ReceiptImageRenderer {
  /** PNG bytes of the whole receipt, QR included. Deterministic: same layout, same bytes. */
  renderPng(layout: ReceiptLayout, images?: ReadonlyMap<string, Uint8Array>): Uint8Array;
}
