import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatSfsDateTime, localParts, parseApiDateTime } from '../../src/core/time.js';
import { type Harness, type Json, pd, startHarness } from '../support/kasa-harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h.close());

const stored = (documentNo: number) => h.kasa.parts.index.findDocument({ by: 'documentNo', documentNo })!;

describe('online documents (embedded SFS simulator, virtual printer)', () => {
  let first: Json;

  it('registers a PD with mixed VAT online: uuid, processDate, qrCode = uuid, printed once', async () => {
    const res = await h.post('/api/document/store', pd({ externalId: 'POS-1' }));
    expect(res.status).toBe(200);
    expect(res.body.resultCode).toBe(0);
    first = res.body.document;
    expect(first.uuid).toMatch(/^O-[0-9A-F]{32}$/);
    expect(first.qrCode).toBe(first.uuid);
    expect(first.processDate).toMatch(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2}$/);
    expect(first.sequenceId).toBe(1);
    expect(first.documentNumber).toMatch(/^\d{6}\/1$/);
    expect(first.issueDate).toBe(first.createDate);
    expect(first.vatRateSums).toEqual([
      { title: 'VAT_23', base: 4.07, vat: 0.93, sum: 5 },
      { title: 'VAT_5', base: 0.43, vat: 0.02, sum: 0.45 },
      { title: 'VAT_0', base: 2, vat: 0, sum: 2 },
      { title: 'TOTAL', base: 6.5, vat: 0.95, sum: 7.45 },
    ]);
    const jobs = h.printer.history.filter((j) => j.kind === 'receipt');
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.text).toContain(`UID: ${first.uuid}`);
    expect(stored(1)).toMatchObject({ sendState: 'online', printState: 'printed', sendingCount: 1 });
  });

  it('registers vouchers, packaging and a refund with reference; the 2026 recap sums 19 % and 5 %', async () => {
    const body = {
      type: 'PD',
      amount: 17.05, // 20 − 5 + 2.40 + 2.00 + 0.30 − 0.15 − 2.50
      documentEntries: [
        { name: 'Tričko', price: 20, quantity: 1, vatRate: 'VAT_23', itemType: 'SALE', voucherNumber: 'V-1' },
        {
          name: 'Poukážka',
          price: -5,
          quantity: 1,
          vatRate: 'VAT_23',
          itemType: 'VOUCHER',
          voucherNumber: 'V-1',
        },
        { name: 'Chlieb', price: 1.2, quantity: 2, vatRate: 'VAT_5', itemType: 'SALE' },
        { name: 'Džús', price: 2, quantity: 1, vatRate: 'VAT_19', itemType: 'SALE' },
        { name: 'Fľaša', price: 0.15, quantity: 2, vatRate: 'VAT_0', itemType: 'PACKING' },
        { name: 'Vrátená fľaša', price: -0.15, quantity: 1, vatRate: 'VAT_0', itemType: 'PACKING_REFUND' },
        {
          name: 'Vrátená káva',
          price: -2.5,
          quantity: 1,
          vatRate: 'VAT_23',
          itemType: 'REFUND',
          referenceDocumentId: first.uuid,
        },
      ],
      payments: { Karta: 17.05 },
    };
    const res = await h.post('/api/document/store', body);
    expect(res.body.resultCode).toBe(0);
    expect(res.body.document.uuid).toMatch(/^O-/);
    const sfs = stored(2).document.sfs;
    // 23 %: 20 − 5 − 2.50 = 12.50 gross → VAT 12.50×23/123 = 2.337… → 2.34, base 10.16
    expect([sfs.TaxBaseBasic, sfs.BasicVatAmount]).toEqual(['10.16', '2.34']);
    // 19 %: 2.00 → 0.319… → 0.32 / 1.68; 5 %: 2.40 → 0.114… → 0.11 / 2.29; reduced = both summed
    expect([sfs.TaxBaseReduced, sfs.ReducedVatAmount]).toEqual(['3.97', '0.43']);
    expect(sfs.TaxFreeAmount).toBe('0.15');
    expect(sfs.Items!.map((i) => i.ItemType)).toEqual(['K', 'VP', 'K', 'K', 'K', 'VO', 'V']);
    expect(sfs.Items![6]!.ReferenceReceiptId).toBe(first.uuid);
    expect(res.body.document.documentEntries[1]).toMatchObject({
      type: 'VOUCHER',
      voucherNumber: 'V-1',
      totalPrice: -5,
    });
  });

  it('registers a UF (invoice payment): no items, invoice number, no VAT recap', async () => {
    const res = await h.post('/api/document/store', {
      type: 'UF',
      amount: 120.5,
      invoiceId: 'FA2026-77',
      payments: { Hotovosť: 120.5 },
    });
    expect(res.body.resultCode).toBe(0);
    expect(res.body.document).toMatchObject({
      type: 'UF',
      invoiceId: 'FA2026-77',
      amount: 120.5,
      documentEntries: [],
    });
    const sfs = stored(3).document.sfs;
    expect(sfs.InvoiceNumber).toBe('FA2026-77');
    expect(sfs.Items).toBeUndefined();
    expect(sfs.TaxBaseBasic).toBeUndefined();
    expect(h.printer.history.at(-1)!.text).toContain('FA2026-77');
  });

  it('registers an ND (neplatný doklad), printed as such', async () => {
    const res = await h.post('/api/document/store', pd({ type: 'ND' }));
    expect(res.body.resultCode).toBe(0);
    expect(res.body.document.type).toBe('ND');
    expect(h.printer.history.at(-1)!.text).toContain('NEPLATNÝ DOKLAD');
  });

  it('registers a paragón: issueDate is the paper date, createDate now, PKP over CreateDate', async () => {
    const paperDate = new Date(h.clock.now().getTime() - 3 * 3600_000);
    const paragonDate = formatSfsDateTime(paperDate);
    const res = await h.post('/api/document/store', pd({ paragonNumber: 17, paragonDate }));
    expect(res.body.resultCode).toBe(0);
    const doc = res.body.document;
    expect(doc.paragonNumber).toBe(17);
    expect(parseApiDateTime(doc.issueDate)!.getTime()).toBe(Math.floor(paperDate.getTime() / 1000) * 1000);
    expect(doc.issueDate).not.toBe(doc.createDate);
    const sfs = stored(5).document.sfs;
    expect(sfs).toMatchObject({ Paragon: 'true', ParagonNumber: '17' });
  });

  it('registers cash deposits and withdrawals in the same monthly sequence (sending forced, ADR 0704)', async () => {
    await h.kasa.parts.journal.append({
      type: 'settings',
      body: { changes: { forceSendCashDocuments: true } },
    });
    const deposit = await h.post('/api/cash', { amount: 100 });
    expect(deposit.body.resultCode).toBe(0);
    expect(deposit.body.cash).toMatchObject({ documentType: 'VK', amount: 100, sequenceId: 6, status: {} });
    expect(deposit.body.cash.uuid).toMatch(/^O-/);
    await h.kasa.parts.journal.append({
      type: 'settings',
      body: { changes: { forceSendCashDocuments: null } },
    });
    const withdrawal = await h.post('/api/cash', { amount: -30.5, openDrawer: true });
    expect(withdrawal.body.cash).toMatchObject({ documentType: 'VY', amount: -30.5, sequenceId: 7 });
    expect(stored(7).document.sfs.Amount).toBe('30.50');
    expect(h.printer.drawerOpenings).toBeGreaterThan(0);
  });

  it('returns an electronic receipt (PNG) when online, and does not print', async () => {
    const before = h.printer.history.length;
    const res = await h.post('/api/document/store', pd({ electronicReceipt: true }));
    expect(res.body.resultCode).toBe(0);
    const doc = res.body.document;
    expect(doc.electronic).toBe(true);
    const png = Buffer.from(doc.electronicReceipt, 'base64');
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(h.printer.history.length).toBe(before);
    // the last document is electronic: nothing to print, and the next store is not blocked
    expect((await h.post('/api/document/print', {})).body.resultCode).toBe(505);
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(0);
  });

  it('accepts a 5-cent cash rounding: Amount is the rounded total, the difference is printed', async () => {
    const res = await h.post('/api/document/store', {
      type: 'PD',
      amount: 10,
      documentEntries: [{ name: 'Syr', price: 4.99, quantity: 2, vatRate: 'VAT_19', itemType: 'SALE' }],
      payments: { Hotovosť: 10 },
    });
    expect(res.body.resultCode).toBe(0);
    expect(res.body.document.uuid).toMatch(/^O-/);
    expect(res.body.document.amount).toBe(10);
    const last = h.kasa.parts.index.findDocument({ by: 'last' })!;
    expect(last.document.sfs.Amount).toBe('10.00');
    expect(last.document.roundingCents).toBe(2);
    expect(h.printer.history.at(-1)!.text).toMatch(/Zaokr/);
  });

  it('has a PKP that openssl verifies over the base string rebuilt from the response alone', async () => {
    const { month, year } = localParts(h.clock.now());
    const res = await h.post('/api/document/get', { documentBySequenceId: { sequenceId: 1, month, year } });
    expect(res.body.resultCode).toBe(0);
    const d = res.body.document;
    const createDate = formatSfsDateTime(parseApiDateTime(d.createDate)!);
    const base = [
      d.merchant.dic,
      d.cashRegisterCode,
      d.type,
      d.sequenceId,
      createDate,
      Math.abs(d.amount).toFixed(2),
    ].join('|');
    const dir = mkdtempSync(join(tmpdir(), 'kasa-pkp-'));
    const cert = h.kasa.parts.index.currentMerchant()!.merchant.certificate;
    writeFileSync(
      join(dir, 'cert.pem'),
      `-----BEGIN CERTIFICATE-----\n${cert.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`,
    );
    execFileSync('openssl', [
      'x509',
      '-in',
      join(dir, 'cert.pem'),
      '-pubkey',
      '-noout',
      '-out',
      join(dir, 'pub.pem'),
    ]);
    writeFileSync(join(dir, 'base.txt'), base);
    writeFileSync(join(dir, 'pkp.bin'), Buffer.from(d.pkp, 'base64'));
    const out = execFileSync('openssl', [
      'dgst',
      '-sha256',
      '-verify',
      join(dir, 'pub.pem'),
      '-signature',
      join(dir, 'pkp.bin'),
      join(dir, 'base.txt'),
    ]).toString();
    expect(out.trim()).toBe('Verified OK');
  });
});
