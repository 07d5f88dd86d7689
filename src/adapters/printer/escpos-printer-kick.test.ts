import { afterEach, describe, expect, it } from 'vitest';
import { CutAfterKickProxy } from '../../../test/support/cut-after-kick-proxy.js';
import { fiscalFailure as failure } from '../../../test/support/fiscal-failure.js';
import { waitFor } from '../../../test/support/wait-for.js';
import { DEFAULT_PROFILE, type PrinterProfile } from '../../config/printer-profile.js';
import type { PrintJob } from '../../core/ports/receipt-printer.js';
import { layoutFreeText } from '../../core/receipt/free-text-layout.js';
import { layoutReceipt } from '../../core/receipt/receipt-layout.js';
import { renderReceiptText } from '../../core/receipt/receipt-text.js';
import { SAMPLE_RECEIPTS } from '../../core/receipt/sample-receipts.js';
import { EscPosPrinterSim } from '../../simulators/printer/escpos-printer-sim.js';
import { TcpTransport } from '../transport/byte-transport.js';
import { EscPosPrinter } from './escpos-printer.js';

const layout = layoutReceipt(SAMPLE_RECEIPTS.pdOnline, 48);
const receipt: PrintJob = { kind: 'receipt', layout, openDrawer: true };

let close: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of close.reverse()) await c();
  close = [];
});

/** printer-sim behind a hop that drops the line right after the first ESC p passed it. */
async function rig(profile: PrinterProfile): Promise<{ sim: EscPosPrinterSim; printer: EscPosPrinter }> {
  const sim = await EscPosPrinterSim.start({ rowsPerSecond: 200_000 });
  const proxy = await CutAfterKickProxy.start({ host: sim.host, port: sim.port });
  const printer = new EscPosPrinter(new TcpTransport(proxy.host, proxy.port), {
    adapter: 'tcp',
    target: `tcp://${proxy.host}:${proxy.port}`,
    profile,
  });
  close.push(
    () => sim.close(),
    () => proxy.close(),
    () => printer.close(),
  );
  return { sim, printer };
}

describe.each([
  ['received', DEFAULT_PROFILE],
  ['printed', { ...DEFAULT_PROFILE, confirm: 'printed' as const }],
])(
  'the line drops after the unit with the kick went out, before the printer answered (confirm=%s)',
  (_, profile) => {
    it('102 without partialPrint (nothing counts as printed), the kick counts as sent: the reprint prints every line and does not kick again', async () => {
      const { sim, printer } = await rig(profile);
      const e = await failure(printer.print(receipt));
      expect(e.resultCode).toBe(102);
      await waitFor(() => sim.drawerKicks.length === 1);
      await printer.print(receipt);
      const [printed] = await sim.waitForJobs(1);
      // Nothing of the receipt is skipped: the first unit and every line after it are on paper.
      expect(printed!.text).toBe(renderReceiptText(layout));
      expect(sim.drawerKicks).toHaveLength(1);
      // Not started (a document would count as handed over), but the kick is reported for the record.
      expect(e.details?.partialPrint).toBeUndefined();
      expect(e.details?.drawerOpened).toBe(true);
    }, 30_000);

    it('with another job in between, the receipt printed again still does not kick', async () => {
      const { sim, printer } = await rig(profile);
      expect((await failure(printer.print(receipt))).resultCode).toBe(102);
      await printer.print({ kind: 'text', layout: layoutFreeText('between', 48) });
      await printer.print(receipt);
      const jobs = await sim.waitForJobs(2);
      expect(jobs.at(-1)!.text).toBe(renderReceiptText(layout));
      expect(sim.drawerKicks).toHaveLength(1);
    }, 30_000);
  },
);
