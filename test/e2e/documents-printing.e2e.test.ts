import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, pd, startHarness } from '../support/kasa-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('printing failures', () => {
  it('answers 507 (HTTP 200) with the document and printer code, then 508 until the document is printed', async () => {
    h = await startHarness();
    h.printer.setPaper('out');
    const res = await h.post('/api/document/store', pd());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ resultCode: 507, printResultCode: 105 });
    expect(res.body.document.uuid).toMatch(/^O-/);
    expect(res.body.error).toContain('POST /api/document/print');

    const next = await h.post('/api/document/store', pd());
    expect(next.status).toBe(500);
    expect(next.body.resultCode).toBe(508);
    const cash = await h.post('/api/cash', { amount: 10 });
    expect(cash.body.resultCode).toBe(508);
    expect(h.kasa.parts.index.lastDocumentNo()).toBe(1); // nothing stored by the refused requests

    // reads still work while blocked
    expect((await h.post('/api/document/get', {})).body.resultCode).toBe(0);

    // printing while the paper is still out fails with the printer code
    const stillOut = await h.post('/api/document/print', {});
    expect(stillOut.body).toMatchObject({ resultCode: 105, printResultCode: 105 });

    h.printer.setPaper('ok');
    const printed = await h.post('/api/document/print', {});
    expect(printed.status).toBe(200);
    expect(printed.body).toEqual({ resultCode: 0 });
    expect(h.printer.history.filter((j) => j.kind === 'receipt')).toHaveLength(1);
    expect((await h.post('/api/document/print', {})).body.resultCode).toBe(505);
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(0);
  });

  it('refuses cash with 508 before anything is stored, and reports the printer code for a failed cash print', async () => {
    h = await startHarness();
    h.printer.failNext('PRINTER_NOT_READY');
    const cash = await h.post('/api/cash', { amount: 25 });
    expect(cash.status).toBe(500);
    expect(cash.body).toMatchObject({ resultCode: 100, printResultCode: 100 });
    expect(h.kasa.parts.index.lastDocumentNo()).toBe(1);
    expect((await h.post('/api/cash', { amount: 25 })).body.resultCode).toBe(508);
    expect(h.kasa.parts.index.lastDocumentNo()).toBe(1);
  });

  it('with --printer none, only electronic online receipts can be handed over', async () => {
    h = await startHarness({ printer: { kind: 'none' } });
    const electronic = await h.post('/api/document/store', pd({ electronicReceipt: true }));
    expect(electronic.body.resultCode).toBe(0);
    const paper = await h.post('/api/document/store', pd());
    expect(paper.body).toMatchObject({ resultCode: 507, printResultCode: 104 });
  });

  it('prints a copy marked KÓPIA on get with printer, which never counts as the original', async () => {
    h = await startHarness();
    expect((await h.post('/api/document/store', pd({ externalId: 'copy-1' }))).body.resultCode).toBe(0);
    h.printer.failNext('PRINTER_NO_PAPER');
    const failedCopy = await h.post('/api/document/get', {
      documentByExternalId: { externalId: 'copy-1' },
      printer: {},
    });
    expect(failedCopy.body).toMatchObject({ resultCode: 105, printResultCode: 105 });
    // a failed copy does not make the printed original unprinted
    expect((await h.post('/api/document/print', {})).body.resultCode).toBe(505);
    const copy = await h.post('/api/document/get', {
      documentByExternalId: { externalId: 'copy-1' },
      printer: {},
    });
    expect(copy.body.resultCode).toBe(0);
    const job = h.printer.history.at(-1)!;
    expect(job.kind).toBe('copy');
    expect(job.text).toContain('KÓPIA');
    expect(h.printer.history.filter((j) => j.kind === 'receipt')).toHaveLength(1);
  });

  it('refuses a copy with 508 while the last original is unprinted, and a copy does not print the original', async () => {
    h = await startHarness();
    h.printer.failNext('PRINTER_NO_PAPER');
    expect((await h.post('/api/document/store', pd({ externalId: 'o-1' }))).body.resultCode).toBe(507);
    const copy = await h.post('/api/document/get', {
      documentByExternalId: { externalId: 'o-1' },
      printer: {},
    });
    expect(copy.body.resultCode).toBe(508);
    expect(h.printer.history.filter((j) => j.kind === 'copy')).toHaveLength(0);
    // without printer the lookup is a read and still answers
    expect(
      (await h.post('/api/document/get', { documentByExternalId: { externalId: 'o-1' } })).body.resultCode,
    ).toBe(0);
  });

  it('falls back to paper when the electronic receipt cannot be rendered', async () => {
    h = await startHarness({
      renderer: {
        renderPng: () => {
          throw new Error('font missing');
        },
      },
    });
    const res = await h.post('/api/document/store', pd({ electronicReceipt: true }));
    expect(res.body.resultCode).toBe(0);
    expect(res.body.document.electronic).toBe(false);
    expect(res.body.document.electronicReceipt).toBeUndefined();
    expect(h.printer.history.filter((j) => j.kind === 'receipt')).toHaveLength(1);
  });
});
