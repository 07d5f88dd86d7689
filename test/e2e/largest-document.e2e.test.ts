import { afterEach, describe, expect, it } from 'vitest';
import { BLOCK_DATA_SIZE } from '../../src/adapters/chdu/image-layout.js';
import { LIMITS } from '../../src/core/documents/limits.js';
import { MAX_RECORD_BYTES } from '../../src/core/journal/record-codec.js';
import { onChduLite } from '../support/chdu-lite-register.js';
import { type Harness, startHarness } from '../support/kasa-harness.js';

/**
 * ADR 0121: the largest document the request rules allow (SFS §2.6: 500 items; names of 255
 * characters) is one CHDÚ record, registered, printed and read back whole. With the 64 KiB record
 * limit of ADR 0102 a register refused anything over about 450 short items with 203.
 */
let open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const x of open.reverse()) await x.close();
  open = [];
});

/** 500 items, every text member at its longest, in `ch` (1–4 bytes of UTF-8, or XML-escaped). */
function largest(ch: string, externalId: string) {
  const items = Array.from({ length: LIMITS.maxItems }, (_, i) => ({
    name: `${String(i).padStart(3, '0')}${ch.repeat(LIMITS.nameMaxChars - 3)}`,
    price: 0.01,
    quantity: 1,
    itemType: 'SALE',
    vatRate: 'VAT_0',
    specialRegulation: 'PDP',
    externalId: ch.repeat(LIMITS.externalIdMaxChars),
    seller: { id: 'A'.repeat(50), sellerIdType: 'IC_DPH' },
  }));
  return {
    type: 'PD',
    amount: 5,
    documentEntries: items,
    payments: { [ch.repeat(LIMITS.paymentNameMaxChars)]: 5 },
    header: ch.repeat(LIMITS.headerMaxChars),
    footer: ch.repeat(LIMITS.footerMaxChars),
    externalId,
    customer: { id: 'B'.repeat(50), customerIdType: 'INE' },
  };
}

async function storesWhole(h: Harness, ch: string, externalId: string): Promise<void> {
  const jobs = h.printer.history.length;
  const stored = await h.post('/api/document/store', largest(ch, externalId));
  expect(stored.body.resultCode).toBe(0);
  expect(stored.body.document.uuid).toMatch(/^O-/); // registered online
  const found = await h.post('/api/document/get', { documentByExternalId: { externalId } });
  expect(found.body.resultCode).toBe(0);
  const entries = found.body.document.documentEntries as Array<{ name: string }>;
  expect(entries).toHaveLength(500);
  expect(entries[499]!.name).toBe(`499${ch.repeat(252)}`);
  expect(h.printer.history.length).toBe(jobs + 1);
  expect(h.printer.history.at(-1)!.text).toContain('499');
}

describe('the largest valid document (ADR 0121)', () => {
  it('is stored, registered, printed and read back on the image CHDÚ, whatever its characters', async () => {
    const h = await startHarness();
    open.push(h);
    // Slovak letters (2 bytes), characters outside the printer's code page (3 and 4 bytes: raster
    // lines), and characters XML escapes (the largest SOAP message).
    const blocks: number[] = [];
    const journal = h.kasa.parts.journal;
    for (const [i, ch] of ['ž', '€', '𝄞', '"'].entries()) {
      await storesWhole(h, ch, `largest-${i}`);
      // Records of a store: its document, its SFS exchange, its print.
      const documentNo = journal.head()!.recordNo - 2;
      const at = (no: number) => journal.get(no).then((r) => r!.address);
      blocks.push((await at(documentNo + 1)) - (await at(documentNo)));
    }
    // The largest (4-byte characters) is below the record limit with room to spare: no valid
    // request meets the 203 any more. A block holds BLOCK_DATA_SIZE − 8 bytes of a record.
    const largestRecord = Math.max(...blocks) * (BLOCK_DATA_SIZE - 8);
    expect(largestRecord).toBeGreaterThan(700_000);
    expect(largestRecord).toBeLessThan(0.8 * MAX_RECORD_BYTES);
  }, 120_000);

  it('is stored on a CHDU Lite device, block after block', async () => {
    const { harness: h, device } = await onChduLite();
    open.push(device, h);
    await storesWhole(h, 'ž', 'largest-lite');
  }, 120_000);
});
