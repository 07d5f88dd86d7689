import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE } from '../../config/printer-profile.js';
import { FiscalError } from '../../core/fiscal-error.js';
import { layoutReceipt } from '../../core/receipt/receipt-layout.js';
import { SAMPLE_RECEIPTS } from '../../core/receipt/sample-receipts.js';
import { EscPosPrinterSim } from '../../simulators/printer/escpos-printer-sim.js';
import { TcpTransport } from '../transport/byte-transport.js';
import { EscPosEncoder } from './escpos-encoder.js';
import { EscPosPrinter } from './escpos-printer.js';
import { faultOf, paperOf } from './escpos-status.js';

async function withSim<T>(
  f: (sim: EscPosPrinterSim, printer: EscPosPrinter, sleeps: number[]) => Promise<T>,
): Promise<T> {
  const sim = await EscPosPrinterSim.start();
  const sleeps: number[] = [];
  const printer = new EscPosPrinter(new TcpTransport(sim.host, sim.port), {
    adapter: 'tcp',
    target: sim.target,
    profile: DEFAULT_PROFILE,
    sleep: async (ms) => void sleeps.push(ms),
  });
  try {
    return await f(sim, printer, sleeps);
  } finally {
    await printer.close();
    await sim.close();
  }
}

const receipt = () => ({ kind: 'receipt' as const, layout: layoutReceipt(SAMPLE_RECEIPTS.pdOnline, 48) });
const codeOf = async (p: Promise<unknown>) => {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  return FiscalError.is(e) ? e.resultCode : undefined;
};

describe('DLE EOT status → printer codes (ADR 0506)', () => {
  it.each([
    [{ printer: 0x12, paper: 0x12 }, undefined, 'ok'],
    [{ printer: 0x12, paper: 0x1e }, undefined, 'near-end'],
    [{ printer: 0x1a, offline: 0x32, error: 0x12, paper: 0x72 }, 'PRINTER_NO_PAPER', 'out'],
    [{ printer: 0x1a, offline: 0x16, error: 0x12, paper: 0x12 }, 'PRINTER_NOT_READY', 'ok'],
    [{ printer: 0x1a, offline: 0x52, error: 0x52, paper: 0x12 }, 'PRINTER_NOT_READY', 'ok'],
    [{ printer: 0x1a, offline: 0x12, error: 0x12, paper: 0x12 }, 'PRINTER_NOT_READY', 'ok'],
  ] as const)('%o → %s', (status, fault, paper) => {
    expect(faultOf(status)).toBe(fault);
    expect(paperOf(status)).toBe(paper);
  });

  it('asks the real printer before each job: out of paper 105, cover 100, off-line 100, overheated 100, unreachable 102', async () => {
    await withSim(async (sim, printer) => {
      const cases: Array<[Parameters<EscPosPrinterSim['set']>[0], number]> = [
        [{ paper: 'out' }, 105],
        [{ coverOpen: true }, 100],
        [{ online: false }, 100],
        [{ overheated: true }, 100],
      ];
      for (const [state, code] of cases) {
        sim.reset();
        sim.set(state);
        expect(await codeOf(printer.print(receipt()))).toBe(code);
        expect((await printer.status()).fault).toBeDefined();
      }
      sim.reset();
      await printer.print(receipt());
      await sim.waitForJobs(1);
      sim.set({ reachable: false });
      expect(await codeOf(printer.print(receipt()))).toBe(102);
      expect(await printer.status()).toMatchObject({ connected: false, fault: 'PRINTER_NOT_CONNECTED' });
    });
  });

  it('a silent line is 103 (no answer within the limit)', async () => {
    const { createServer } = await import('node:net');
    const sockets: import('node:net').Socket[] = [];
    const server = createServer((s) => void sockets.push(s)); // accepts, never answers
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    const printer = new EscPosPrinter(new TcpTransport('127.0.0.1', port), {
      adapter: 'tcp',
      target: `tcp://127.0.0.1:${port}`,
      profile: DEFAULT_PROFILE,
      statusTimeoutMs: 200,
    });
    expect(await codeOf(printer.print(receipt()))).toBe(103);
    await printer.close();
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  });
});

describe('print pacing (windowSize in bytes, printDelay in ms)', () => {
  it('pauses printDelay between windows of at most windowSize bytes, cut only between units', async () => {
    await withSim(async (sim, printer, sleeps) => {
      const job = new EscPosEncoder(DEFAULT_PROFILE).encode(receipt().layout);
      await printer.print(receipt(), { windowSize: 2500, printDelay: 5000 });
      // Windows as the units fill them: the same count the encoder's units give.
      let windows = 1;
      let inWindow = 0;
      for (const u of job.units) {
        const size = u.end - u.start;
        if (inWindow > 0 && inWindow + size > 2500) {
          windows++;
          inWindow = 0;
        }
        inWindow += size;
      }
      expect(windows).toBeGreaterThan(1);
      expect(sleeps).toEqual(Array(windows - 1).fill(5000));
      await sim.waitForJobs(1);
      await printer.print(receipt());
      expect(sleeps).toHaveLength(windows - 1); // no pacing asked: one window
    });
  });
});
