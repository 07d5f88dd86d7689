import { createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { fiscalFailure as failure } from '../../../test/support/fiscal-failure.js';
import { linesRepeatedNoneLost } from '../../../test/support/no-line-lost.js';
import { DEFAULT_PROFILE, type PrinterProfile } from '../../config/printer-profile.js';
import type { PartialPrintInfo, PrintJob } from '../../core/ports/receipt-printer.js';
import { MAX_PAUSE_PER_JOB_MS } from '../../core/printing/print-pacing.js';
import { layoutFreeText } from '../../core/receipt/free-text-layout.js';
import { layoutReceipt } from '../../core/receipt/receipt-layout.js';
import { renderReceiptText } from '../../core/receipt/receipt-text.js';
import { SAMPLE_RECEIPTS } from '../../core/receipt/sample-receipts.js';
import { EscPosPrinterSim, type PrinterSimOptions } from '../../simulators/printer/escpos-printer-sim.js';
import { TcpTransport } from '../transport/byte-transport.js';
import { EscPosEncoder, type EscPosJob } from './escpos-encoder.js';
import { EscPosPrinter } from './escpos-printer.js';
import type { Sleep } from './print-pacing.js';

const layout = layoutReceipt(SAMPLE_RECEIPTS.pdOnline, 48);
const receipt = (openDrawer = false): PrintJob => ({
  kind: 'receipt',
  layout,
  ...(openDrawer ? { openDrawer } : {}),
});
const PRINTED: PrinterProfile = { ...DEFAULT_PROFILE, confirm: 'printed' };

async function rig(
  profile: PrinterProfile,
  simOptions: PrinterSimOptions = {},
  sleep: Sleep = async () => undefined,
): Promise<{ sim: EscPosPrinterSim; printer: EscPosPrinter; close(): Promise<void> }> {
  const sim = await EscPosPrinterSim.start(simOptions);
  const printer = new EscPosPrinter(new TcpTransport(sim.host, sim.port), {
    adapter: 'tcp',
    target: sim.target,
    profile,
    sleep,
  });
  return {
    sim,
    printer,
    async close() {
      await printer.close();
      await sim.close();
    },
  };
}

/**
 * The line offset, in the bytes kasa writes, of `into` bytes into unit `n` (a line of text): the
 * job starts after DLE EOT 1 and 4 (6 bytes); after each unit comes its confirmation request.
 */
function lineOffsetOf(job: EscPosJob, n: number, into: number, perUnit: number): number {
  let at = 6;
  for (let i = 0; i < n; i++) {
    const u = job.units[i]!;
    at += u.end - u.start + perUnit;
  }
  return at + into;
}

function countKicks(bytes: Uint8Array): number {
  let n = 0;
  for (let i = 0; i + 1 < bytes.length; i++) if (bytes[i] === 0x1b && bytes[i + 1] === 0x70) n++;
  return n;
}

describe('a power cut mid-job: nothing printed goes missing (ADR 0507)', () => {
  it('confirm=received: the receive buffer is lost, the resumed print goes back a buffer and repeats lines, losing none', async () => {
    // A slow mechanism: when the power goes, everything the printer confirmed is still unprinted.
    const r = await rig(DEFAULT_PROFILE, { rowsPerSecond: 20 });
    try {
      const job = new EscPosEncoder(DEFAULT_PROFILE).encode(layout);
      r.sim.set({ dropAfterBytes: lineOffsetOf(job, 20, 11, 3) });
      const e = await failure(r.printer.print(receipt()));
      expect(e.resultCode).toBe(106);
      const partial = e.details?.partialPrint as PartialPrintInfo;
      // Nineteen lines arrived, none is surely printed (4 KB buffer): go back to the first.
      expect(partial.resumeOffset).toBe(job.units[0]!.end);
      expect(partial.unconfirmedLines).toBe(19);
      r.sim.set({ rowsPerSecond: 200_000 });
      await r.printer.print(receipt());
      const [printed] = await r.sim.waitForJobs(1);
      expect(linesRepeatedNoneLost(printed!.text, renderReceiptText(layout))).toBeGreaterThanOrEqual(0);
      expect(printed!.qrCodes).toEqual([SAMPLE_RECEIPTS.pdOnline.qrText]);
    } finally {
      await r.close();
    }
  }, 60_000);

  it('confirm=received: a unit a whole buffer before the newest confirmed byte counts as printed', async () => {
    const r = await rig({ ...DEFAULT_PROFILE, bufferBytes: 256 }, { rowsPerSecond: 20 });
    try {
      const job = new EscPosEncoder(DEFAULT_PROFILE).encode(layout);
      r.sim.set({ dropAfterBytes: lineOffsetOf(job, 20, 11, 3) });
      const partial = (await failure(r.printer.print(receipt()))).details?.partialPrint as PartialPrintInfo;
      expect(partial.resumeOffset).toBeGreaterThan(job.units[0]!.end);
      expect(partial.printedLines).toBeGreaterThan(0);
      expect(partial.printedLines + (partial.unconfirmedLines ?? 0)).toBe(19);
    } finally {
      await r.close();
    }
  }, 60_000);

  it('confirm=received, a fast mechanism and a job of several buffers: cut at any unit, the reprint loses no line', async () => {
    // The mechanism prints while the job streams in, so at the cut the buffer is full: exactly
    // what `bufferBytes` must cover. The status requests after each unit are answered on arrival
    // and never occupy the buffer, so "a buffer back" counts job bytes only.
    const text = Array.from(
      { length: 200 },
      (_, i) => `Line ${String(i).padStart(3, '0')} ${'x'.repeat(30)}`,
    );
    const long: PrintJob = { kind: 'text', layout: layoutFreeText(text.join('\n'), 48) };
    const job = new EscPosEncoder(DEFAULT_PROFILE).encode(long.layout);
    expect(job.bytes.length).toBeGreaterThan(2 * DEFAULT_PROFILE.bufferBytes);
    const whole = renderReceiptText(long.layout);
    const lost: string[] = [];
    for (const at of [60, 100, 120, 140, 160, 180]) {
      const r = await rig(DEFAULT_PROFILE, { rowsPerSecond: 2000, bufferBytes: 4096 });
      try {
        r.sim.set({ dropAfterBytes: lineOffsetOf(job, at, 5, 3) });
        const e = await failure(r.printer.print(long));
        expect(e.resultCode).toBe(106);
        r.sim.set({ rowsPerSecond: 200_000 });
        await r.printer.print(long);
        const [printed] = await r.sim.waitForJobs(1);
        try {
          linesRepeatedNoneLost(printed!.text, whole);
        } catch {
          const paper = new Set(printed!.text.split('\n'));
          lost.push(`cut at unit ${at}: ${text.filter((l) => !paper.has(l)).join(', ')}`);
        }
      } finally {
        await r.close();
      }
    }
    expect(lost).toEqual([]);
  }, 120_000);

  it('confirm=printed (GS ( H process IDs): resumes exactly at the first line not printed', async () => {
    const r = await rig(PRINTED, { rowsPerSecond: 20_000 });
    try {
      const job = new EscPosEncoder(PRINTED).encode(layout);
      r.sim.set({ dropAfterBytes: lineOffsetOf(job, 20, 11, 11) });
      const e = await failure(r.printer.print(receipt()));
      expect(e.resultCode).toBe(106);
      const partial = e.details?.partialPrint as PartialPrintInfo;
      expect(partial.resumeOffset).toBe(job.units[19]!.end);
      expect(partial.printedLines).toBe(19);
      expect(partial.unconfirmedLines).toBeUndefined();
      await r.printer.print(receipt());
      const [printed] = await r.sim.waitForJobs(1);
      expect(printed!.text).toBe(renderReceiptText(layout));
    } finally {
      await r.close();
    }
  }, 60_000);

  it('confirm=printed against a printer that never answers GS ( H: 103 that says to use confirm=received', async () => {
    const sockets: Socket[] = [];
    const server = createServer((s) => {
      sockets.push(s);
      // Answers every DLE EOT "ready", ignores the rest.
      s.on('data', (b: Buffer) => {
        for (let i = 0; i + 2 < b.length; i++)
          if (b[i] === 0x10 && b[i + 1] === 0x04) s.write(Buffer.of(0x12));
      });
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
    const port = (server.address() as { port: number }).port;
    const printer = new EscPosPrinter(new TcpTransport('127.0.0.1', port), {
      adapter: 'tcp',
      target: `tcp://127.0.0.1:${port}`,
      profile: PRINTED,
      printTimeoutMs: 1500,
    });
    try {
      const e = await failure(printer.print({ kind: 'text', layout: layoutFreeText('x', 48) }));
      expect(e.resultCode).toBe(103);
      expect(e.message).toContain('confirm=received');
    } finally {
      await printer.close();
      for (const s of sockets) s.destroy();
      await new Promise<void>((ok) => server.close(() => ok()));
    }
  }, 30_000);
});

describe.each([
  ['received', DEFAULT_PROFILE, 3],
  ['printed', PRINTED, 11],
])('the drawer opens once per receipt (capability 11 review; confirm=%s)', (_, profile, perUnit) => {
  // ADR 0507 once counted a job with a kick as started as soon as its first unit (ESC @, the kick,
  // font, code page) was confirmed: 106 with printedLines 0, and the document counted as handed
  // over (ADR 0712) though no line reached the paper. The kick is remembered on its own since ADR
  // 0517, so only confirmed receipt content starts a job (ADR 0507, amended): this is now the
  // plain printer code, carrying the kick.
  it('a line lost right after the first unit (ESC @ + kick) was confirmed, with the first line handed to the line: started (it may be on paper: the safe side, ADR 0507), the kick counts as sent: the reprint prints every line and does not kick again', async () => {
    const r = await rig(profile, { rowsPerSecond: 200_000 });
    try {
      const job = new EscPosEncoder(profile).encode(layout, { openDrawer: true });
      expect(job.drawerKick).toBe(true);
      // The first unit and its confirmation arrive, the power goes 5 bytes into the first line.
      r.sim.set({ dropAfterBytes: lineOffsetOf(job, 1, 5, perUnit) });
      const e = await failure(r.printer.print(receipt(true)));
      // The first line went to the line unanswered: a printer that stayed on may have printed it.
      expect(e.details?.partialPrint).toMatchObject({ printedLines: 0 });
      await r.printer.print(receipt(true));
      const [printed] = await r.sim.waitForJobs(1);
      // The whole receipt from its first line, each line once.
      expect(printed!.text).toBe(renderReceiptText(layout));
      // Every byte the printer got, both attempts: one ESC p.
      expect(countKicks(printed!.bytes)).toBe(1);
    } finally {
      await r.close();
    }
  }, 60_000);

  it('the same with another job in between: the receipt printed whole again does not kick again', async () => {
    const r = await rig(profile, { rowsPerSecond: 200_000 });
    try {
      const job = new EscPosEncoder(profile).encode(layout, { openDrawer: true });
      r.sim.set({ dropAfterBytes: lineOffsetOf(job, 1, 5, perUnit) });
      const e = await failure(r.printer.print(receipt(true)));
      expect(e.details?.partialPrint).toMatchObject({ printedLines: 0 });
      await r.printer.print({ kind: 'text', layout: layoutFreeText('between', 48) });
      await r.printer.print(receipt(true));
      const jobs = await r.sim.waitForJobs(2);
      expect(jobs.at(-1)!.text).toBe(renderReceiptText(layout));
      expect(jobs.reduce((n, j) => n + countKicks(j.bytes), 0)).toBe(1);
    } finally {
      await r.close();
    }
  }, 60_000);

  it('a line lost once the first line was confirmed: started (106, that line reported), the resumed print does not kick again', async () => {
    const r = await rig(profile, { rowsPerSecond: 200_000 });
    try {
      const job = new EscPosEncoder(profile).encode(layout, { openDrawer: true });
      r.sim.set({ dropAfterBytes: lineOffsetOf(job, 2, 5, perUnit) });
      const e = await failure(r.printer.print(receipt(true)));
      expect(e.resultCode).toBe(106);
      const partial = e.details?.partialPrint as PartialPrintInfo;
      // With confirm=received the line is only known to have arrived (a buffer back: unconfirmed).
      expect(partial.printedLines + (partial.unconfirmedLines ?? 0)).toBe(1);
      expect(e.details?.drawerOpened).toBe(true);
      await r.printer.print(receipt(true));
      const [printed] = await r.sim.waitForJobs(1);
      expect(linesRepeatedNoneLost(printed!.text, renderReceiptText(layout))).toBeGreaterThanOrEqual(0);
      expect(countKicks(printed!.bytes)).toBe(1);
    } finally {
      await r.close();
    }
  }, 60_000);
});

describe('status never waits for a running job (ADR 0514)', () => {
  it('while a paced job pauses, status() answers at once: the last reading, busy', async () => {
    let paused: () => void = () => undefined;
    const inPause = new Promise<void>((ok) => {
      paused = ok;
    });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((ok) => {
      release = ok;
    });
    const r = await rig(DEFAULT_PROFILE, { rowsPerSecond: 200_000 }, async () => {
      paused();
      await gate;
    });
    try {
      const printing = r.printer.print(receipt(), { windowSize: 256, printDelay: 5000 });
      await inPause;
      // The job holds the line until the gate opens; status must not queue behind it.
      const status = await Promise.race([
        r.printer.status(),
        new Promise<'waited'>((ok) => setTimeout(() => ok('waited'), 10_000)),
      ]);
      expect(status).toMatchObject({ busy: true, ready: true, connected: true, paper: 'ok' });
      release();
      await printing;
      const after = await r.printer.status();
      expect(after.busy).toBeUndefined();
      expect(after.ready).toBe(true);
    } finally {
      release();
      await r.close();
    }
  }, 60_000);
});

describe('pacing is bounded (ADR 0516)', () => {
  it("a job's pauses add up to at most two minutes: windows widen, every pause is the one asked for", async () => {
    const sleeps: number[] = [];
    const r = await rig(DEFAULT_PROFILE, { rowsPerSecond: 200_000 }, async (ms) => void sleeps.push(ms));
    try {
      const text = Array.from({ length: 120 }, (_, i) => `Riadok ${i} ${'x'.repeat(50)}`).join('\n');
      const long: PrintJob = { kind: 'text', layout: layoutFreeText(text, 48) };
      const bytes = new EscPosEncoder(DEFAULT_PROFILE).encode(long.layout).bytes.length;
      expect(Math.ceil(bytes / 256) - 1).toBeGreaterThan(12); // as asked: far more than 12 pauses
      await r.printer.print(long, { windowSize: 256, printDelay: 10_000 });
      expect(sleeps.length).toBeGreaterThan(0);
      expect(sleeps.every((ms) => ms === 10_000)).toBe(true);
      expect(sleeps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(MAX_PAUSE_PER_JOB_MS);
      await r.sim.waitForJobs(1);
    } finally {
      await r.close();
    }
  }, 60_000);
});
