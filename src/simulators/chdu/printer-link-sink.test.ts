import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EscPosPrinterSim } from '../printer/escpos-printer-sim.js';
import { PrinterLinkSink } from './printer-link-sink.js';

let sim: EscPosPrinterSim;
let link: PrinterLinkSink | undefined;
beforeEach(async () => {
  sim = await EscPosPrinterSim.start();
});
afterEach(async () => {
  link?.close();
  await sim.close();
});

async function until(f: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 10_000;
  while (!f()) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('the emulated CHDU Lite printer port (kasa chdu-sim --printer tcp://…)', () => {
  it('forwards print data and drawer pulses; without a handshake line it learns readiness by DLE EOT when idle', async () => {
    link = new PrinterLinkSink(sim.host, sim.port, { idlePollMs: 30 });
    await until(() => link!.ready(), 'ready');
    await link.print(Uint8Array.from([0x1b, 0x40, 0x41, 0x42, 0x0a, 0x1d, 0x56, 0x01]));
    await link.openDrawer(5);
    await sim.waitForJobs(1);
    expect(sim.jobs[0]!.text).toBe('AB\n');
    await until(() => sim.drawerKicks.length === 1, 'kick');
    expect(sim.drawerKicks[0]!.pin).toBe(5);
    sim.set({ paper: 'out' });
    await until(() => !link!.ready(), 'not ready after paper out');
    sim.set({ paper: 'ok' });
    await until(() => link!.ready(), 'ready again');
  });
});
