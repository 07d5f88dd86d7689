import { invalidInput } from '../../fiscal-error.js';
import type { Journal } from '../../ports/journal.js';
import type { JournalIndex } from '../../ports/journal-index.js';
import type { PrintOptions, ReceiptPrinter } from '../../ports/receipt-printer.js';
import { layoutFreeText } from '../../receipt/free-text-layout.js';
import { printerError, printFailureOf } from '../documents/document-receipt.js';
import { assertNothingBlocks } from '../documents/issue-document.js';
import type { WriteLock } from '../write-lock.js';

/** Longest free text: a long slip, well inside one journal record. */
export const FREE_TEXT_MAX_CHARS = 8000;

export interface PrintFreeTextDeps {
  journal: Journal;
  index: JournalIndex;
  lock: WriteLock;
  printer: ReceiptPrinter;
}

/**
 * `POST /api/print` (API text: "the text is also stored in CHDU memory"): the text is written to
 * the CHDÚ first as a `free-text` record — no document number, no fiscal marks (ADR 0404, 0511) —
 * then printed as given: `\n` breaks lines, the caller pads; only a line longer than the paper
 * wraps. Like every CHDÚ write it waits while the last document is unprinted (508) or stuck (501).
 * A print that fails answers the printer's code with `recordNo`: the text stays stored.
 */
export class PrintFreeText {
  constructor(private readonly deps: PrintFreeTextDeps) {}

  async execute(printData: string, options?: PrintOptions): Promise<{ resultCode: 0; recordNo: number }> {
    const text = checkFreeText(printData);
    return this.deps.lock.run('print', async () => {
      assertNothingBlocks(this.deps);
      const record = await this.deps.journal.append({ type: 'free-text', body: { text } });
      try {
        await this.deps.printer.print(
          { kind: 'text', layout: layoutFreeText(text, this.deps.printer.charsPerLine) },
          options,
        );
      } catch (e) {
        const failure = printFailureOf(e);
        throw printerError(
          failure.printerCode,
          `The text is stored in the CHDÚ (record ${record.recordNo}) but printing failed (printer code ${failure.printerCode}).`,
          {
            recordNo: record.recordNo,
            ...(failure.partialPrint === undefined ? {} : { partialPrint: failure.partialPrint }),
          },
        );
      }
      return { resultCode: 0 as const, recordNo: record.recordNo };
    });
  }
}

/** `\r\n` becomes `\n`; other control characters are refused (they would drive the printer). */
export function checkFreeText(printData: string): string {
  const text = printData.replace(/\r\n/g, '\n');
  if (text.trim() === '') throw invalidInput('printData', 'must not be empty');
  if (Array.from(text).length > FREE_TEXT_MAX_CHARS) {
    throw invalidInput('printData', `at most ${FREE_TEXT_MAX_CHARS} characters`);
  }
  const chars = Array.from(text);
  const at = chars.findIndex((ch) => {
    const cp = ch.codePointAt(0) ?? 0;
    return ch !== '\n' && (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f));
  });
  if (at >= 0) {
    const code = (chars[at]?.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
    throw invalidInput('printData', `control character U+${code} at position ${at}; only \\n breaks lines`);
  }
  return text;
}
