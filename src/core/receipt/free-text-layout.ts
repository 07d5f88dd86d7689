import { LineBuilder } from './line-builder.js';
import type { ReceiptLayout } from './receipt-blocks.js';

/**
 * A free-text print (`POST /api/print`): the text word-wrapped to the paper, then a cut. It is not
 * a fiscal document, so it carries no fiscal marks; `\n` starts a new line, blank lines are kept.
 */
export function layoutFreeText(text: string, width: number): ReceiptLayout {
  return new LineBuilder(width).wrapped(text).feed().cut().build();
}
