import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/adapters/logging/logger.js';
import { DEMO_CA_DIR } from '../../src/adapters/merchant/test-merchant.js';
import { composeKasa, type Kasa } from '../../src/compose/compose-kasa.js';
import { defaultServeConfig, type ServeKey } from '../../src/config/serve-config.js';
import { SETTING_KEYS } from '../../src/core/settings/settings-schema.js';
import { EscPosPrinterSim } from '../../src/simulators/printer/escpos-printer-sim.js';
import type { VirtualPrinter } from '../../src/simulators/printer/virtual-printer.js';
import { SfsSimulator } from '../../src/simulators/sfs/sfs-simulator.js';
import { type Harness, type Json, pd, startHarness } from '../support/kasa-harness.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function harness(options: Parameters<typeof startHarness>[0] = {}): Promise<Harness> {
  const h = await startHarness(options);
  cleanups.push(() => h.close());
  return h;
}

async function put(kasa: Kasa, settings: unknown): Promise<{ status: number; body: Json }> {
  return putBody(kasa, { settings });
}

async function putBody(kasa: Kasa, body: unknown): Promise<{ status: number; body: Json }> {
  const res = await kasa.app.inject({
    method: 'PUT',
    url: '/api/settings/store',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  return { status: res.statusCode, body: res.json() };
}

const virtual = (h: Harness) => h.kasa.parts.printer as VirtualPrinter;
const lastText = (h: Harness) => virtual(h).history.at(-1)?.text ?? '';
const widest = (text: string) => Math.max(...text.split('\n').map((l) => [...l].length));

describe('GET /api/settings/get and PUT /api/settings/store (capability 12)', () => {
  it('answers every key of the one schema, with the fixed ones', async () => {
    const h = await harness();
    const got = await h.get('/api/settings/get');
    expect(got.status).toBe(200);
    expect(got.body.resultCode).toBe(0);
    expect(Object.keys(got.body.settings).sort()).toEqual([...SETTING_KEYS].sort());
    expect(got.body.fixed).toEqual([]);
    // Sending back exactly what GET returned is always accepted, and writes nothing.
    const before = h.kasa.parts.index.highWaterMark();
    const back = await put(h.kasa, got.body.settings);
    expect(back.body).toMatchObject({ resultCode: 0, changed: [] });
    expect(h.kasa.parts.index.highWaterMark()).toBe(before);
  });

  it('characters per line apply to the very next receipt, paper and electronic, without a restart', async () => {
    const h = await harness();
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(0);
    expect(widest(lastText(h))).toBe(48);
    const changed = await put(h.kasa, { printerPaperWidthDots: 512, printerCharsPerLine: 42 });
    expect(changed.body).toMatchObject({
      resultCode: 0,
      changed: ['printerPaperWidthDots', 'printerCharsPerLine'],
    });
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(0);
    expect(widest(lastText(h))).toBe(42);
    expect((await h.get('/api/printer')).body).toMatchObject({ charsPerLine: 42, paperWidthDots: 512 });
    const electronic = await h.post('/api/document/store', pd({ electronicReceipt: true }));
    const png = PNG.sync.read(Buffer.from(electronic.body.document.electronicReceipt, 'base64'));
    expect(png.width).toBe(512);
  });

  it('a value that does not fit, or an unknown key, is 701 naming it and changes nothing', async () => {
    const h = await harness();
    const before = h.kasa.parts.index.highWaterMark();
    for (const [settings, field] of [
      [{ printerCharsPerLine: 42 }, 'settings.printerCharsPerLine'],
      [{ printerCharsPerLine: 'wide' }, 'settings.printerCharsPerLine'],
      [{ printerWidth: 42 }, 'settings.printerWidth'],
      [{ printerTarget: 'lpt1' }, 'settings.printerTarget'],
      [{ printerTarget: 'virtual?chars=32' }, 'settings.printerTarget'],
    ] as const) {
      const res = await put(h.kasa, settings);
      expect(res.status, JSON.stringify(settings)).toBe(500);
      expect(res.body, JSON.stringify(settings)).toMatchObject({ resultCode: 701, field });
    }
    expect(h.kasa.parts.index.highWaterMark()).toBe(before);
    expect((await h.get('/api/settings/get')).body.settings.printerCharsPerLine).toBe(48);
  });

  it('a value outside a fixed list is refused with the allowed values named', async () => {
    const h = await harness();
    for (const [settings, field, allowed] of [
      [{ printerCharsPerLine: 50 }, 'settings.printerCharsPerLine', 'must be one of 32, 42, 48, 56, 64'],
      [{ printerPaperWidthDots: 400 }, 'settings.printerPaperWidthDots', 'must be one of 384, 512, 576'],
      [{ printerCodepage: 'utf8' }, 'settings.printerCodepage', 'must be one of cp852, cp1250, raster'],
      [{ printerQr: 'svg' }, 'settings.printerQr', 'must be one of raster, native'],
      [{ printerConfirm: 'sent' }, 'settings.printerConfirm', 'must be one of received, printed'],
      [{ nopEnvironment: 'test' }, 'settings.nopEnvironment', 'must be one of off, int, prod'],
      [{ nopPaymeType: 'x' }, 'settings.nopPaymeType', 'must be one of m, p'],
      [{ adminLanguage: 'de' }, 'settings.adminLanguage', 'must be one of sk, en'],
    ] as const) {
      const res = await put(h.kasa, settings);
      expect(res.body, JSON.stringify(settings)).toMatchObject({ resultCode: 701, field });
      expect(res.body.error, JSON.stringify(settings)).toContain(allowed);
    }
  });

  it('are kept in the CHDÚ: they survive a restart and a rebuilt index', async () => {
    const h = await startHarness();
    const dataDir = h.dataDir;
    await put(h.kasa, { printerCharsPerLine: 64, receiptFooter: 'Ďakujeme za nákup', logoEnabled: false });
    await h.close();
    const again = await harness({ dataDir });
    expect((await again.get('/api/settings/get')).body.settings).toMatchObject({
      printerCharsPerLine: 64,
      receiptFooter: 'Ďakujeme za nákup',
      logoEnabled: false,
    });
    await again.close();
    cleanups.length = 0;
    rmSync(join(dataDir, 'index.sqlite'), { force: true });
    rmSync(join(dataDir, 'index.sqlite-wal'), { force: true });
    rmSync(join(dataDir, 'index.sqlite-shm'), { force: true });
    const rebuilt = await harness({ dataDir });
    expect((await rebuilt.get('/api/settings/get')).body.settings.printerCharsPerLine).toBe(64);
    expect((await rebuilt.post('/api/document/store', pd())).body.resultCode).toBe(0);
    expect(widest(lastText(rebuilt))).toBe(64);
    expect(lastText(rebuilt)).toContain('Ďakujeme za nákup');
  });

  it('receipt header and footer apply where the request has none; print pacing defaults reach the printer', async () => {
    const h = await harness();
    await put(h.kasa, {
      receiptHeader: 'Vitajte',
      receiptFooter: 'Dovidenia',
      printWindowSize: 2500,
      printDelay: 5,
    });
    const own = await h.post('/api/document/store', pd({ footer: 'Vlastná pätička' }));
    expect(own.body.document).toMatchObject({ header: 'Vitajte', footer: 'Vlastná pätička' });
    expect(lastText(h)).toContain('Vitajte');
    expect(lastText(h)).not.toContain('Dovidenia');
    expect(virtual(h).history.at(-1)?.options).toEqual({ windowSize: 2500, printDelay: 5 });
    await h.post('/api/document/get', { printer: { windowSize: 300 } });
    expect(virtual(h).history.at(-1)?.options).toEqual({ windowSize: 300, printDelay: 5 });
  });

  it('print pacing defaults have the bounds of a request Printer object (ADR 0516): what one refuses, so does the other', async () => {
    const h = await harness();
    for (const [pacing, key, member] of [
      [{ windowSize: 255 }, 'printWindowSize', 'windowSize'],
      [{ windowSize: 1 }, 'printWindowSize', 'windowSize'],
      [{ printDelay: 10_001 }, 'printDelay', 'printDelay'],
      [{ printDelay: 60_000 }, 'printDelay', 'printDelay'],
    ] as const) {
      const value = Object.values(pacing)[0];
      const stored = await put(h.kasa, { [key]: value });
      expect(stored.body, JSON.stringify(pacing)).toMatchObject({
        resultCode: 701,
        field: `settings.${key}`,
      });
      const printed = await h.post('/api/print', { printData: 'x', printer: pacing });
      expect(printed.body, JSON.stringify(pacing)).toMatchObject({
        resultCode: 701,
        field: `printer.${member}`,
      });
    }
    for (const [key, member, value] of [
      ['printWindowSize', 'windowSize', 0],
      ['printWindowSize', 'windowSize', 256],
      ['printDelay', 'printDelay', 10_000],
    ] as const) {
      expect((await put(h.kasa, { [key]: value })).body.resultCode, `${key} ${value}`).toBe(0);
      const printed = await h.post('/api/print', { printData: 'x', printer: { [member]: value } });
      expect(printed.body.resultCode, `${member} ${value}`).toBe(0);
    }
  });

  it('the printer is swapped between requests; one that cannot be opened is 701 and the old one stays', async () => {
    const sim = await EscPosPrinterSim.start();
    cleanups.push(() => sim.close());
    const h = await harness();
    const swapped = await put(h.kasa, { printerTarget: sim.target });
    expect(swapped.body).toMatchObject({ resultCode: 0, changed: ['printerTarget'] });
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(0);
    await sim.waitForJobs(1);
    expect(sim.jobs[0]?.text).toContain('POKLADNIČNÝ DOKLAD');
    const refused = await put(h.kasa, { printerTarget: 'tcp://127.0.0.1:1' });
    expect(refused.body).toMatchObject({ resultCode: 701, field: 'settings.printerTarget' });
    // Named as the setting it was, not as the --printer flag with kasa's internal profile query.
    expect(refused.body.error).toMatch(
      /^settings\.printerTarget: tcp:\/\/127\.0\.0\.1:1: cannot open the printer/,
    );
    expect(refused.body.error).not.toContain('--printer');
    expect(refused.body.error).not.toContain('?chars=');
    expect((await h.get('/api/settings/get')).body.settings.printerTarget).toBe(sim.target);
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(0);
    await sim.waitForJobs(2);
    // Back to the virtual printer: the sim's connection is let go.
    expect((await put(h.kasa, { printerTarget: 'virtual' })).body.resultCode).toBe(0);
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(0);
    expect(virtual(h).history.at(-1)?.text).toContain('POKLADNIČNÝ DOKLAD');
    expect(sim.jobs).toHaveLength(2);
  });

  it('the SFS is swapped between requests: the next document goes to the new one; unreadable trust is 701', async () => {
    const h = await harness();
    const other = await SfsSimulator.start({ caDir: join(h.dataDir, DEMO_CA_DIR), clock: h.clock });
    cleanups.push(() => other.close());
    const trust = join(h.dataDir, 'other-sfs.pem');
    writeFileSync(trust, other.signingCertPem);
    const refused = await put(h.kasa, { sfsUrl: other.url, sfsTrust: [join(h.dataDir, 'missing.pem')] });
    expect(refused.body).toMatchObject({ resultCode: 701, field: 'settings.sfsTrust' });
    const embedded = h.kasa.parts.sfsSimulator!;
    const swapped = await put(h.kasa, { sfsUrl: other.url, sfsTrust: [trust] });
    expect(swapped.body).toMatchObject({ resultCode: 0 });
    const doc = await h.post('/api/document/store', pd());
    expect(doc.body.document.uuid).toMatch(/^O-/);
    expect(other.history().length).toBe(1);
    expect(embedded.history().length).toBe(0);
    const status = (await h.get('/api/status/get')).body.components.find((c: Json) => c.component === 'SFS');
    expect(status.details.target).toBe(other.url);
  });

  it('a printerTarget that is no character device is 701 saying what it is; not a byte is written into it (ADR 0426)', async () => {
    const h = await harness();
    const image = join(h.dataDir, 'chdu.img');
    const link = join(h.dataDir, 'lp0');
    symlinkSync(image, link);
    const digest = () => createHash('sha256').update(readFileSync(image)).digest('hex');
    const before = digest();
    for (const target of [`usb://${image}`, `usb://${link}`]) {
      const refused = await put(h.kasa, { printerTarget: target });
      expect(refused.body, target).toMatchObject({ resultCode: 701, field: 'settings.printerTarget' });
      expect(refused.body.error, target).toMatch(
        /^settings\.printerTarget: usb:\/\/\S+: .*is a regular file, not a printer device/,
      );
    }
    expect(digest()).toBe(before);
    expect((await h.get('/api/settings/get')).body.settings.printerTarget).toBe('virtual');
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(0);
  });

  it('sfsTrust naming a FIFO, /dev/zero or a file over 1 MiB is 701 at once; the event loop keeps answering (ADR 0426)', async () => {
    const h = await harness();
    const other = await SfsSimulator.start({ caDir: join(h.dataDir, DEMO_CA_DIR), clock: h.clock });
    cleanups.push(() => other.close());
    const fifo = join(h.dataDir, 'trust.fifo');
    execFileSync('mkfifo', [fifo]);
    // Without the check, reading the FIFO would hold the whole process until someone writes to
    // it: this writer does after 3 s, so a regression fails on time instead of hanging the run.
    const writer: ChildProcess = spawn('sh', ['-c', 'sleep 3; echo x > "$0"', fifo], { stdio: 'ignore' });
    cleanups.push(async () => {
      if (writer.exitCode === null) writer.kill('SIGKILL');
    });
    const big = join(h.dataDir, 'big.pem');
    // A valid certificate, then comment lines past 1 MiB: read whole, it would be accepted.
    writeFileSync(big, `${other.signingCertPem}\n${'# padding\n'.repeat(110_000)}`);
    for (const path of [fifo, '/dev/zero', big]) {
      let longestGap = 0;
      let last = Date.now();
      const ticker = setInterval(() => {
        longestGap = Math.max(longestGap, Date.now() - last);
        last = Date.now();
      }, 5);
      const started = Date.now();
      const refused = await put(h.kasa, { sfsUrl: other.url, sfsTrust: [path] });
      const took = Date.now() - started;
      await new Promise((r) => setTimeout(r, 20));
      clearInterval(ticker);
      longestGap = Math.max(longestGap, Date.now() - last);
      expect(refused.body, path).toMatchObject({ resultCode: 701, field: 'settings.sfsTrust' });
      expect(refused.body.error, path).toContain(path);
      expect(took, path).toBeLessThan(1000);
      expect(longestGap, path).toBeLessThan(500);
    }
    expect((await h.get('/api/settings/get')).body.settings.sfsUrl).toBeNull();
  });

  it('a writing request in flight keeps the SFS and printer it started with: the change waits its turn (300)', async () => {
    const h = await harness({ sfsTimeoutMs: 5000 });
    const sim = h.kasa.parts.sfsSimulator!;
    sim.setLatency(800, 1);
    const store = h.post('/api/document/store', pd());
    // The document is with the SFS (the request holds the one-writer lock) …
    while (sim.history().length === 0) await new Promise((r) => setTimeout(r, 10));
    const during = await put(h.kasa, { printerCharsPerLine: 64 });
    expect(during.body.resultCode).toBe(300);
    const done = await store;
    expect(done.body.resultCode).toBe(0);
    expect(widest(lastText(h))).toBe(48);
    expect((await put(h.kasa, { printerCharsPerLine: 64 })).body.resultCode).toBe(0);
  });

  it('a key a flag gave is fixed: shown with its flag, refused when changed, accepted unchanged', async () => {
    // A register with a merchant (demo), then started again the way `kasa serve` does with flags.
    const first = await startHarness();
    const dir = first.dataDir;
    await first.close();
    const fixed = new Set<ServeKey>(['sfsTimeoutMs', 'printer']);
    const kasa = await composeKasa(
      defaultServeConfig(dir, {
        port: 0,
        logLevel: 'silent',
        sfsTimeoutMs: 1200,
        printer: { kind: 'virtual' },
        fixed,
        fixedBy: new Map<ServeKey, string>([
          ['sfsTimeoutMs', 'KASA_SFS_TIMEOUT_MS'],
          ['printer', '--printer'],
        ]),
      }),
      { logger: createLogger('silent') },
    );
    cleanups.push(() => kasa.close());
    const got = (await kasa.app.inject({ method: 'GET', url: '/api/settings/get' })).json();
    expect(got.fixed.sort()).toEqual(['printerTarget', 'sfsTimeoutMs']);
    expect(got.fixedBy).toEqual({ sfsTimeoutMs: 'KASA_SFS_TIMEOUT_MS', printerTarget: '--printer' });
    const refused = await put(kasa, { sfsTimeoutMs: 3000 });
    expect(refused.body).toMatchObject({ resultCode: 701, field: 'settings.sfsTimeoutMs' });
    expect(refused.body.error).toContain('KASA_SFS_TIMEOUT_MS');
    expect((await put(kasa, { sfsTimeoutMs: 1200, printerTarget: 'virtual' })).body).toMatchObject({
      resultCode: 0,
      changed: [],
    });
    // The whole GET body sent back (ADR 0008 §3): its read-only members are ignored, nothing written.
    const before = kasa.parts.index.highWaterMark();
    expect((await putBody(kasa, got)).body).toMatchObject({ resultCode: 0, changed: [] });
    expect(kasa.parts.index.highWaterMark()).toBe(before);
    // Only those members: another unknown member is still refused naming it.
    const extra = await putBody(kasa, { ...got, changed: [] });
    expect(extra.body).toMatchObject({ resultCode: 701, field: 'changed' });
    // --printer without a paper profile leaves the paper keys free.
    expect((await put(kasa, { printerCharsPerLine: 64 })).body.resultCode).toBe(0);
  });

  it('are refused like other fiscal endpoints while the register cannot work (no merchant: 402)', async () => {
    const h = await harness({ demo: false });
    expect((await h.get('/api/settings/get')).body.resultCode).toBe(402);
    expect((await put(h.kasa, { logoEnabled: false })).body.resultCode).toBe(402);
  });
});
