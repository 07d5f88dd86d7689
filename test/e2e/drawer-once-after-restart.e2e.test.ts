import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE } from '../../src/config/printer-profile.js';
import { renderReceiptText } from '../../src/core/receipt/receipt-text.js';
import { documentLayout } from '../../src/core/services/documents/document-receipt.js';
import { EscPosPrinterSim } from '../../src/simulators/printer/escpos-printer-sim.js';
import { CutAfterKickProxy } from '../support/cut-after-kick-proxy.js';
import { type Harness, pd, startHarness } from '../support/kasa-harness.js';
import { waitFor } from '../support/offline-helpers.js';
import { dropInFirstLine, dropPoint } from '../support/printer-drop-point.js';

let h: Harness | undefined;
let sim: EscPosPrinterSim | undefined;
let proxy: CutAfterKickProxy | undefined;
afterEach(async () => {
  await h?.close();
  await proxy?.close();
  await sim?.close();
  h = undefined;
  proxy = undefined;
  sim = undefined;
});

describe('a drawer opens at most once per receipt, also across a restart (ADR 0507)', () => {
  it('a receipt with openDrawer cut short (106), kasa restarted, printed with /api/document/print: one kick in all', async () => {
    sim = await EscPosPrinterSim.start();
    // Confirming printing (process IDs): the kick is surely carried out before the line drops — a
    // printer that loses it in the power cut would make the count prove nothing.
    const printer = {
      kind: 'tcp' as const,
      host: sim.host,
      port: sim.port,
      profile: { ...DEFAULT_PROFILE, confirm: 'printed' as const },
    };
    const dataDir = mkdtempSync(join(tmpdir(), 'kasa-drawer-'));
    const markDir = mkdtempSync(join(tmpdir(), 'kasa-drawer-marks-'));
    h = await startHarness({ printer, dataDir, markDir });

    // A reference receipt (no kick) tells where the fourth line of the next one lies.
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(0);
    await waitFor(() => sim!.jobs.length === 1, 'the reference receipt');
    const reference = sim.jobs[0]!;
    expect(sim.drawerKicks).toHaveLength(0);

    sim.set({ dropAfterBytes: dropPoint(reference.bytes) });
    const cut = await h.post('/api/document/store', pd({ openDrawer: true }));
    expect(cut.body).toMatchObject({ resultCode: 507, printResultCode: 106 });
    expect(cut.body.partialPrint.printedLines).toBeGreaterThan(0);
    // The first unit, the kick in it, printed before the line dropped: the drawer opened once.
    expect(sim.drawerKicks).toHaveLength(1);

    // kasa stops (the adapter's memory of the cut job goes with it) and starts again.
    await h.close();
    h = await startHarness({ printer, dataDir, markDir });
    const jobsBefore = sim.jobs.length;
    expect((await h.post('/api/document/print', {})).body).toEqual({ resultCode: 0 });
    await waitFor(() => sim!.jobs.length > jobsBefore, 'the receipt');
    const job = sim.jobs.at(-1)!;
    expect(job.qrCodes.at(-1)).toBe(cut.body.document.qrCode);
    // The whole receipt is on paper again, and the drawer did not open a second time.
    expect(sim.drawerKicks).toHaveLength(1);
    // The print record of the cut attempt is what says so: the index rebuilt from it agrees.
    expect(h.kasa.parts.index.findDocument({ by: 'documentNo', documentNo: 2 })?.printState).toBe('printed');
  }, 90_000);

  it('the line drops once the unit with the kick went out, before the printer answered (102, nothing printed): not handed over, and after a restart /api/document/print prints it whole without a second kick', async () => {
    sim = await EscPosPrinterSim.start({ rowsPerSecond: 200_000 });
    // The printer gets the first unit (ESC @, ESC p, font, code page) and opens the drawer; kasa's
    // line drops before the DLE EOT answer after that unit comes back.
    proxy = await CutAfterKickProxy.start({ host: sim.host, port: sim.port });
    const printer = { kind: 'tcp' as const, host: proxy.host, port: proxy.port, profile: DEFAULT_PROFILE };
    const dataDir = mkdtempSync(join(tmpdir(), 'kasa-drawer-'));
    const markDir = mkdtempSync(join(tmpdir(), 'kasa-drawer-marks-'));
    h = await startHarness({ printer, dataDir, markDir });

    const cut = await h.post('/api/document/store', pd({ openDrawer: true }));
    expect(cut.body).toMatchObject({ resultCode: 507, printResultCode: 102 });
    expect(cut.body.partialPrint).toBeUndefined();
    expect(proxy.cuts).toBe(1);
    await waitFor(() => sim!.drawerKicks.length === 1, 'the kick');
    // No line of the receipt reached the paper: the document is not handed over (ADR 0712).
    const indexed = h.kasa.parts.index.findDocument({ by: 'documentNo', documentNo: 1 });
    expect(indexed).toMatchObject({ printState: 'failed', lastPrinterCode: 102 });
    expect(indexed?.printStarted).toBeUndefined();
    expect(indexed?.drawerOpened).toBe(true);

    // kasa stops; without its index the next start derives everything from the CHDÚ's records.
    await h.close();
    for (const f of ['index.sqlite', 'index.sqlite-wal', 'index.sqlite-shm'])
      rmSync(join(dataDir, f), { force: true });
    h = await startHarness({ printer, dataDir, markDir });
    expect((await h.post('/api/document/print', {})).body).toEqual({ resultCode: 0 });
    await waitFor(() => sim!.jobs.length === 1, 'the receipt');
    const job = sim.jobs[0]!;
    expect(job.qrCodes.at(-1)).toBe(cut.body.document.qrCode);
    expect(job.text).toContain(cut.body.document.documentNumber);
    // The kick went out with the cut attempt; the CHDÚ's print record says so, so no second one.
    expect(sim.drawerKicks).toHaveLength(1);
    expect(h.kasa.parts.index.findDocument({ by: 'documentNo', documentNo: 1 })?.printState).toBe('printed');
  }, 90_000);

  it('the printer confirmed the first unit (ESC @ and the kick), the first line went out, then the power went: started (that line may be on paper: the safe side), and /api/document/print prints every line without a second kick', async () => {
    sim = await EscPosPrinterSim.start({ rowsPerSecond: 200_000 });
    // Confirming printing: the process ID after the first unit proves the kick was carried out
    // before the power cut 5 bytes into the first line, so the kick count below proves something.
    const profile = { ...DEFAULT_PROFILE, confirm: 'printed' as const };
    const printer = { kind: 'tcp' as const, host: sim.host, port: sim.port, profile };
    const dataDir = mkdtempSync(join(tmpdir(), 'kasa-drawer-'));
    const markDir = mkdtempSync(join(tmpdir(), 'kasa-drawer-marks-'));
    h = await startHarness({ printer, dataDir, markDir });

    sim.set({ dropAfterBytes: dropInFirstLine(profile) });
    const cut = await h.post('/api/document/store', pd({ openDrawer: true }));
    // ADR 0507 as amended last: the first line was handed to the line whole; kasa cannot tell a
    // power cut (nothing printed) from a line that dropped (the printer prints it), so the job is
    // started and the document handed over — never a receipt on paper that a repair may change.
    expect(cut.body.resultCode).toBe(507);
    expect(cut.body.partialPrint).toMatchObject({ printedLines: 0 });
    expect(sim.drawerKicks).toHaveLength(1);
    expect(sim.jobs).toHaveLength(0);
    expect(sim.openJobText()).toBe('');
    const indexed = h.kasa.parts.index.findDocument({ by: 'documentNo', documentNo: 1 });
    expect(indexed).toMatchObject({ printState: 'failed', printStarted: true });

    // The print record says the same after a restart with the index rebuilt from the CHDÚ.
    await h.close();
    for (const f of ['index.sqlite', 'index.sqlite-wal', 'index.sqlite-shm'])
      rmSync(join(dataDir, f), { force: true });
    h = await startHarness({ printer, dataDir, markDir });
    const rebuilt = h.kasa.parts.index.findDocument({ by: 'documentNo', documentNo: 1 });
    expect(rebuilt).toMatchObject({ printState: 'failed', printStarted: true });

    expect((await h.post('/api/document/print', {})).body).toEqual({ resultCode: 0 });
    const [job] = await sim.waitForJobs(1);
    // Resumed after the first unit: every line, each once (printing is confirmed), no second kick.
    expect(job!.text).toBe(lastLayoutText(h));
    expect(job!.qrCodes.at(-1)).toBe(cut.body.document.qrCode);
    expect(sim.drawerKicks).toHaveLength(1);
    expect(h.kasa.parts.index.findDocument({ by: 'documentNo', documentNo: 1 })?.printState).toBe('printed');
  }, 90_000);
});

/** The text of the last document's receipt as kasa lays it out. */
function lastLayoutText(harness: Harness): string {
  const index = harness.kasa.parts.index;
  const doc = index.findDocument({ by: 'last' });
  const merchant = index.currentMerchant();
  if (!doc || !merchant) throw new Error('no document or merchant');
  return renderReceiptText(documentLayout(doc, merchant.merchant, DEFAULT_PROFILE.charsPerLine));
}
