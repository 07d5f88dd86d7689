import { hardWrap } from './line-builder.js';
import { printedLength, type ReceiptBlock, type ReceiptLayout, type TextBlock } from './receipt-blocks.js';

/**
 * A laid-out receipt as plain text, one line per printed line (the virtual printer's `.txt`, logs,
 * tests). Styles are not shown; a QR is shown as `[QR: <content>]`, an image as `[<ref>]`.
 */
export function renderReceiptText(layout: ReceiptLayout): string {
  const lines = layout.blocks.flatMap((block) => blockLines(block, layout.width));
  return `${lines.map((l) => l.trimEnd()).join('\n')}\n`;
}

function blockLines(block: ReceiptBlock, width: number): string[] {
  switch (block.kind) {
    case 'text':
      return [aligned(block, width)];
    case 'separator':
      return [(block.style === 'double' ? '=' : '-').repeat(width)];
    case 'qr':
      return hardWrap(`[QR: ${block.text}]`, width).map((l) => center(l, width));
    case 'image':
      return [center(`[${block.ref}]`, width)];
    case 'feed':
      return Array.from({ length: block.lines }, () => '');
    case 'cut':
      return [];
  }
}

function aligned(block: TextBlock, width: number): string {
  if (block.align === 'left') return block.text;
  if (block.align === 'center') return center(block.text, width);
  return ' '.repeat(Math.max(0, width - printedLength(block.text))) + block.text;
}

function center(text: string, width: number): string {
  return ' '.repeat(Math.max(0, Math.floor((width - printedLength(text)) / 2))) + text;
}
