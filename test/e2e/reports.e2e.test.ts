import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VirtualPrinter } from '../../src/simulators/printer/virtual-printer.js';
import { type Harness, type Json, pd, startHarness } from '../support/kasa-harness.js';
import { ManualClock } from '../support/merchant-register.js';
import { readQr } from '../support/read-qr.js';
import { shopDay } from '../support/shop-day.js';

const cents = (n: number) => Math.round(n * 100);

let h: Harness;
let docs: Json[];
const day = '2026-03-02';
beforeAll(async () => {
  const clock = new ManualClock(new Date('2026-03-01T15:00:00+01:00'));
  h = await startHarness({ clock });
  expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(0);
  clock.current = new Date('2026-03-02T09:00:00+01:00');
  docs = await shopDay(h);
});
afterAll(async () => h.close());

describe('GET /api/documents (extension): latest first, paged, filtered', () => {
  it('pages through every document, newest first, with nextCursor', async () => {
    const first = await h.get('/api/documents?limit=4');
    expect(first.body.documents.map((d: Json) => d.internalDocumentId)).toEqual([7, 6, 5, 4]);
    expect(first.body.nextCursor).toBe(4);
    const second = await h.get(`/api/documents?limit=4&cursor=${first.body.nextCursor}`);
    expect(second.body.documents.map((d: Json) => d.internalDocumentId)).toEqual([3, 2, 1]);
    expect(second.body.nextCursor).toBeUndefined();
    expect(first.body.documents[0]).toMatchObject({ type: 'VY', amount: -40, sendState: 'not-sent' });
  });

  it('filters by day (Europe/Bratislava), type and SFS state; refuses what it does not know', async () => {
    const today = await h.get(`/api/documents?from=${day}&to=${day}&limit=100`);
    expect(today.body.documents).toHaveLength(6);
    const before = await h.get('/api/documents?from=2026-03-01&limit=100');
    expect(before.body.documents.map((d: Json) => d.internalDocumentId)).toEqual([1]);
    const cash = await h.get('/api/documents?type=VK,VY');
    expect(cash.body.documents.map((d: Json) => d.type)).toEqual(['VY', 'VK']);
    expect((await h.get('/api/documents?state=stuck')).body.documents).toEqual([]);
    for (const [query, field] of [
      ['type=XX', 'type'],
      ['limit=0', 'limit'],
      ['from=2026-13-01', 'from'],
      ['state=lost', 'state'],
      ['color=red', 'color'],
    ]) {
      const res = await h.get(`/api/documents?${query}`);
      expect(res.body, query).toMatchObject({ resultCode: 701 });
      expect(String(res.body.field), query).toContain(field);
    }
  });
});

describe('GET /api/documents/view (extension)', () => {
  it('answers the document, its SFS and print state, and its receipt image showing it', async () => {
    const sale = docs[1];
    const v = await h.get(`/api/documents/view?id=${sale.internalDocumentId}`);
    expect(v.body).toMatchObject({
      resultCode: 0,
      document: { documentNumber: sale.documentNumber, uuid: sale.uuid },
      sfs: {
        state: 'online',
        sendingCount: 1,
        lastAttempt: { outcome: 'accepted' },
        accepted: { uuid: sale.uuid },
      },
      print: { state: 'printed' },
      receipt: { charsPerLine: 48 },
    });
    expect(v.body.receipt.text).toContain(sale.documentNumber);
    const png = Buffer.from(v.body.receipt.imageData, 'base64');
    expect(PNG.sync.read(png).width).toBe(576);
    expect(readQr(png)).toBe(sale.uuid);
    expect((await h.get('/api/documents/view?id=999')).body.resultCode).toBe(506);
  });
});

describe('GET /api/report/summary (extension): the closing equals the sums of the documents', () => {
  it('counts, VAT per rate, payments, refunds, deposits, withdrawals and the drawer', async () => {
    const res = await h.get(`/api/report/summary?from=${day}`);
    expect(res.body).toMatchObject({ resultCode: 0, from: day, to: day });
    const s = res.body.summary;
    // Independent sums over the documents as the API returned them.
    const fiscal = docs.filter((d) => d.type !== undefined);
    const cashDocs = docs.filter((d) => d.documentType !== undefined);
    expect(s.counts).toEqual({ PD: 3, UF: 1, ND: 0, VK: 1, VY: 1, total: 6 });
    const rates = new Map<string, { base: number; vat: number; sum: number }>();
    for (const d of fiscal.filter((x) => x.type === 'PD')) {
      for (const r of d.vatRateSums.filter((x: Json) => x.title !== 'TOTAL')) {
        const t = rates.get(r.title) ?? { base: 0, vat: 0, sum: 0 };
        t.base += cents(r.base);
        t.vat += cents(r.vat);
        t.sum += cents(r.sum);
        rates.set(r.title, t);
      }
    }
    const byTitle = (a: Json[], b: Json[]) => String(a[0]).localeCompare(String(b[0]));
    expect(
      s.vatRates.map((r: Json) => [r.title, cents(r.base), cents(r.vat), cents(r.sum)]).sort(byTitle),
    ).toEqual([...rates].map(([title, t]) => [title, t.base, t.vat, t.sum]).sort(byTitle));
    const turnover = fiscal.reduce((a, d) => a + cents(d.amount), 0);
    expect(cents(s.turnover)).toBe(turnover);
    expect(cents(s.refunds.total)).toBe(-250);
    expect(s.refunds.count).toBe(1);
    expect(cents(s.invoicePayments.total)).toBe(5000);
    const byName = new Map<string, number>();
    for (const d of fiscal) {
      for (const [name, amount] of Object.entries(d.paymentTypes as Record<string, number>)) {
        byName.set(name, (byName.get(name) ?? 0) + Math.sign(d.amount) * cents(amount));
      }
    }
    expect(Object.fromEntries(s.payments.map((p: Json) => [p.name, cents(p.total)]))).toEqual(
      Object.fromEntries(byName),
    );
    const deposits = cashDocs.filter((d) => d.amount > 0).reduce((a, d) => a + cents(d.amount), 0);
    const withdrawals = cashDocs.filter((d) => d.amount < 0).reduce((a, d) => a - cents(d.amount), 0);
    expect(cents(s.deposits.total)).toBe(deposits);
    expect(cents(s.withdrawals.total)).toBe(withdrawals);
    // Cash in the drawer: deposits − withdrawals + cash sales (7.45 and the cash part 7.95 of
    // 12.95 paid 5 by card and 10 in cash: 2.05 change) − the 2.50 paid back.
    expect(cents(s.cashInDrawer)).toBe(deposits - withdrawals + 745 + 795 - 250);
  });

  it('prints on the receipt printer as free text at its width', async () => {
    const printer = h.kasa.parts.printer as VirtualPrinter;
    const printed = await h.post('/api/report/summary/print', { from: day });
    expect(printed.body).toMatchObject({ resultCode: 0 });
    expect(printed.body.recordNo).toBeGreaterThan(0);
    const job = printer.history.at(-1)!;
    expect(job.kind).toBe('text');
    expect(job.text).toContain('PREHĽAD TRŽBY');
    expect(job.text).toContain('Hotovosť v pokladni');
    for (const line of job.text.split('\n')) expect([...line].length).toBeLessThanOrEqual(48);
  });

  it('refuses a bad period with 701 naming the field', async () => {
    expect((await h.get('/api/report/summary?from=2026-03-05&to=2026-03-01')).body).toMatchObject({
      resultCode: 701,
      field: 'to',
    });
  });

  it('is marked as an extension in the OpenAPI document, like the document list', async () => {
    const doc = (await h.get('/api/openapi.json')).body;
    for (const path of ['/api/documents', '/api/documents/view', '/api/report/summary']) {
      expect(doc.paths[path].get['x-kasa-extension'], path).toBe(true);
    }
    expect(doc.paths['/api/report/summary/print'].post['x-kasa-extension']).toBe(true);
    expect(doc.paths['/api/settings/get'].get['x-kasa-extension']).toBeUndefined();
  });
});
