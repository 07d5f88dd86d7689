import { PNG } from 'pngjs';
import { afterEach, describe, expect, it } from 'vitest';
import { EscPosDecoder } from '../../src/simulators/printer/escpos-decoder.js';
import { EscPosPaper, type PrintedJob } from '../../src/simulators/printer/escpos-paper.js';
import { type Harness, pd, startHarness } from '../support/kasa-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A 900×300 logo: white margins around a black bar and a red block (colour matters electronically). */
function logoPng(): string {
  const png = new PNG({ width: 900, height: 300 });
  png.data.fill(255);
  for (let y = 100; y < 200; y++) {
    for (let x = 50; x < 850; x++) {
      const i = (y * 900 + x) * 4;
      const red = x > 600;
      png.data[i] = red ? 220 : 0;
      png.data[i + 1] = 0;
      png.data[i + 2] = 0;
    }
  }
  return PNG.sync.write(png).toString('base64');
}

function decodePng(b64: string): PNG {
  return PNG.sync.read(Buffer.from(b64, 'base64'));
}

function paperJob(bytes: Uint8Array): PrintedJob {
  const jobs: PrintedJob[] = [];
  const paper = new EscPosPaper((j) => jobs.push(j));
  for (const c of new EscPosDecoder().push(bytes)) paper.apply(c);
  paper.finish();
  return jobs[0]!;
}

describe('GET /api/printer', () => {
  it('answers the adapter, line width (also as numberOfCharInRow), paper, code page, status, drawer', async () => {
    h = await startHarness({ printer: { kind: 'virtual' } });
    const res = await h.get('/api/printer');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      resultCode: 0,
      adapter: 'virtual',
      charsPerLine: 48,
      numberOfCharInRow: 48,
      paperWidthDots: 576,
      codepage: 'cp852',
      drawer: true,
      status: { ready: true, paper: 'ok', coverOpen: false },
    });
  });

  it('reports a printer that cannot print with its code (none: 104), and is answered even then', async () => {
    h = await startHarness({ printer: { kind: 'none' } });
    const res = await h.get('/api/printer');
    expect(res.body).toMatchObject({
      resultCode: 0,
      adapter: 'none',
      drawer: false,
      status: { ready: false, faultCode: 104 },
    });
  });
});

describe('POST /api/print', () => {
  it('stores the text in the CHDÚ (no document number) and prints it as given', async () => {
    h = await startHarness();
    const docsBefore = h.kasa.parts.index.lastDocumentNo();
    const res = await h.post('/api/print', { printData: 'Stôl 4\n  2x Káva        5.00' });
    expect(res.body).toMatchObject({ resultCode: 0, recordNo: expect.any(Number) });
    const record = await h.kasa.parts.journal.get(res.body.recordNo);
    expect(record).toMatchObject({ type: 'free-text', body: { text: 'Stôl 4\n  2x Káva        5.00' } });
    expect(h.kasa.parts.index.lastDocumentNo()).toBe(docsBefore);
    const job = h.printer.history.at(-1)!;
    expect(job.kind).toBe('text');
    expect(job.text).toBe('Stôl 4\n  2x Káva        5.00\n\n');
  });

  it('refuses control characters (701) and answers the printer code with the record when printing fails', async () => {
    h = await startHarness();
    const bad = await h.post('/api/print', { printData: 'a\u0007b' });
    expect(bad).toMatchObject({ status: 500, body: { resultCode: 701 } });
    expect(bad.body.error).toContain('printData');
    h.printer.setPaper('out');
    const failed = await h.post('/api/print', { printData: 'x' });
    expect(failed.body).toMatchObject({
      resultCode: 105,
      printResultCode: 105,
      recordNo: expect.any(Number),
    });
  });
});

describe('POST /api/drawer/open', () => {
  it('kicks the drawer on pin 2 or 5', async () => {
    h = await startHarness();
    expect((await h.post('/api/drawer/open', {})).body).toEqual({ resultCode: 0 });
    expect((await h.post('/api/drawer/open', { pin: 5 })).body).toEqual({ resultCode: 0 });
    expect(h.printer.drawerKicks).toEqual([2, 5]);
    expect((await h.post('/api/drawer/open', { pin: 3 })).body.resultCode).toBe(701);
  });

  it('104 without a printer, 100 when the printer is not ready', async () => {
    h = await startHarness({ printer: { kind: 'none' } });
    expect((await h.post('/api/drawer/open', {})).body.resultCode).toBe(104);
    await h.close();
    h = await startHarness();
    h.printer.setCoverOpen(true);
    expect((await h.post('/api/drawer/open', {})).body.resultCode).toBe(100);
    expect(h.printer.drawerKicks).toEqual([]);
  });
});

describe('POST /api/image/preview', () => {
  it('returns only the variants asked for, as decodable PNGs of the right widths', async () => {
    h = await startHarness({
      printer: {
        kind: 'virtual',
        profile: {
          charsPerLine: 32,
          font: 'A',
          paperWidthDots: 384,
          codepage: 'cp852',
          codepageNumber: 18,
          qr: 'raster',
          confirm: 'received',
          bufferBytes: 4096,
        },
      },
    });
    const both = await h.post('/api/image/preview', { imageData: logoPng(), format: 'BOTH' });
    expect(both.body.resultCode).toBe(0);
    const print = decodePng(both.body.print.imageData);
    // Trimmed to the ink (800×100), scaled to the 384-dot paper, padded to whole bytes.
    expect(print.width).toBe(384);
    expect(both.body.print).toMatchObject({ width: 384, height: 48 });
    for (let i = 0; i < print.data.length; i += 4) expect([0, 255]).toContain(print.data[i]); // black dots only
    const electronic = decodePng(both.body.electronic.imageData);
    expect(electronic.width).toBe(368); // the electronic receipt's margins
    expect(electronic.data.some((v, i) => i % 4 === 0 && v > 150 && electronic.data[i + 1]! < 80)).toBe(true); // red kept
    const only = await h.post('/api/image/preview', { imageData: logoPng(), format: 'PRINT' });
    expect(Object.keys(only.body).sort()).toEqual(['print', 'resultCode']);
    const onReceipt = await h.post('/api/image/preview', {
      imageData: logoPng(),
      format: 'ELECTRONIC',
      fitOnReceipt: true,
    });
    const sample = decodePng(onReceipt.body.electronic.imageData);
    expect(sample.width).toBe(384);
    expect(sample.height).toBeGreaterThan(1000);
  });

  it('garbage is 701 (HTTP 500) naming imageData', async () => {
    h = await startHarness();
    for (const imageData of ['not base64 !!', Buffer.from('hello, not an image').toString('base64')]) {
      const res = await h.post('/api/image/preview', { imageData, format: 'BOTH' });
      expect(res.status).toBe(500);
      expect(res.body.resultCode).toBe(701);
      expect(res.body.error).toContain('imageData');
    }
  });
});

describe('POST /api/image/store', () => {
  it('stores the logo in the CHDÚ; it heads the next paper and electronic receipt; null removes it', async () => {
    h = await startHarness();
    const stored = await h.post('/api/image/store', { imageData: logoPng() });
    expect(stored.body).toMatchObject({ resultCode: 0, width: 576, height: 72 });
    const record = await h.kasa.parts.journal.get(stored.body.recordNo);
    expect(record?.type).toBe('logo');

    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(0);
    const paper = paperJob(h.printer.history.at(-1)!.bytes);
    // The demo mark comes first (ADR 0500), then the logo heads the receipt.
    expect(paper.elements.findIndex((e) => e.kind === 'image')).toBe(1);
    expect(paper.elements[1]).toMatchObject({ kind: 'image', width: 576, height: 72 });

    const electronic = await h.post('/api/document/store', pd({ electronicReceipt: true }));
    const withLogo = decodePng(electronic.body.document.electronicReceipt);
    expect((await h.post('/api/image/store', { imageData: null })).body.resultCode).toBe(0);
    const without = decodePng(
      (await h.post('/api/document/store', pd({ electronicReceipt: true }))).body.document.electronicReceipt,
    );
    expect(withLogo.height - without.height).toBeGreaterThanOrEqual(72);
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(0);
    expect(paperJob(h.printer.history.at(-1)!.bytes).elements[1]?.kind).toBe('line');
  });

  it('is refused with 701 for garbage, and with 508 while the last document is unprinted', async () => {
    h = await startHarness();
    expect((await h.post('/api/image/store', { imageData: 'AAAA' })).body.resultCode).toBe(701);
    h.printer.setPaper('out');
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(507);
    expect((await h.post('/api/image/store', { imageData: logoPng() })).body.resultCode).toBe(508);
  });

  it('a stored logo survives a restart (read back from the CHDÚ)', async () => {
    h = await startHarness();
    const dataDir = h.dataDir;
    await h.post('/api/image/store', { imageData: logoPng() });
    await h.close();
    h = await startHarness({ dataDir });
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(0);
    expect(paperJob(h.printer.history.at(-1)!.bytes).elements[1]?.kind).toBe('image');
  });
});

describe('the Printer object paces the print', () => {
  it('windowSize/printDelay of store and /api/document/print reach the printer', async () => {
    h = await startHarness();
    await h.post('/api/document/store', pd({ printer: { windowSize: 2500, printDelay: 5000 } }));
    expect(h.printer.history.at(-1)!.options).toEqual({ windowSize: 2500, printDelay: 5000 });
    h.printer.failNext('PRINTER_NO_PAPER');
    expect((await h.post('/api/document/store', pd({ printer: {} }))).body.resultCode).toBe(507);
    expect((await h.post('/api/document/print', { windowSize: 1000, printDelay: 200 })).body.resultCode).toBe(
      0,
    );
    expect(h.printer.history.at(-1)!.options).toEqual({ windowSize: 1000, printDelay: 200 });
    expect((await h.post('/api/document/print', { printDelay: 999_999 })).body.resultCode).toBe(701);
  });
});
