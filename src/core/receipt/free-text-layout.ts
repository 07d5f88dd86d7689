import { hardWrap, LineBuilder } from './line-builder.js';
import type { ReceiptLayout } from './receipt-blocks.js';

/**
 * A free-text print (`POST /api/print`): the text as given — `\n` starts a new line, the caller
 * pads (API text: no formatting, lay out for the printer's characters per line) — a line longer
 * than the paper continues on the next one; then a feed and a cut. It is not a fiscal document,
 * so it carries no fiscal marks.
 */
export function layoutFreeText(text: string, width: number): ReceiptLayout {
  const b = new LineBuilder(width);
  for (const line of text.split('\n')) {
    for (const part of hardWrap(line, width)) b.text(part);
  }
  return b.feed().cut().build();
}
