import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { EscPosPrinterSim } from './escpos-printer-sim.js';
import { startPrinterControl } from './printer-sim-control.js';

const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));

let sim: EscPosPrinterSim | undefined;
let socket: Socket | undefined;
afterEach(async () => {
  socket?.destroy();
  await sim?.close();
});

/** A line to the simulator and what it answers. */
async function open(
  s: EscPosPrinterSim,
): Promise<{ socket: Socket; answers: number[]; until(n: number): Promise<void> }> {
  const sock = connect({ host: s.host, port: s.port });
  socket = sock;
  const answers: number[] = [];
  sock.on('data', (b: Buffer) => answers.push(...b));
  sock.on('error', () => undefined);
  await new Promise<void>((r) => sock.once('connect', () => r()));
  return {
    socket: sock,
    answers,
    async until(n: number) {
      const end = Date.now() + 15_000;
      while (answers.length < n) {
        if (Date.now() > end) throw new Error(`${answers.length} of ${n} answer bytes`);
        await new Promise((r) => setTimeout(r, 5));
      }
    },
  };
}

describe('printer-sim receive buffer: no looser than a real printer (ADR 0503, 0507)', () => {
  it('DLE EOT answers on arrival, before anything prints; a process ID only once everything before it printed', async () => {
    sim = await EscPosPrinterSim.start({ rowsPerSecond: 1 }); // a line takes half a minute
    const line = await open(sim);
    line.socket.write(Uint8Array.from([0x1b, 0x40, ...ascii('first'), 0x0a, 0x10, 0x04, 1]));
    await line.until(1);
    expect(line.answers).toEqual([0x12]);
    expect(sim.unprinted).toBeGreaterThan(0);
    expect(sim.openJobText()).toBe('');
    line.socket.write(Uint8Array.from([0x1d, 0x28, 0x48, 6, 0, 48, 48, ...ascii('0007'), 0x10, 0x04, 1]));
    await line.until(2);
    // The status came back (real time); the process ID waits for the line to be printed.
    expect(line.answers).toEqual([0x12, 0x12]);
    sim.set({ rowsPerSecond: 100_000 });
    await line.until(9);
    expect(line.answers.slice(2)).toEqual([0x37, 0x22, ...ascii('0007'), 0x00]);
    expect(sim.openJobText()).toBe('first\n');
    expect(sim.unprinted).toBe(0);
  });

  it('a power cut (dropAfterBytes) loses what was received but not printed, even though DLE EOT confirmed it', async () => {
    sim = await EscPosPrinterSim.start({ rowsPerSecond: 1 });
    const control = await startPrinterControl(sim, 0);
    try {
      const line = await open(sim);
      const first = Uint8Array.from([
        0x1b,
        0x40,
        ...ascii('one'),
        0x0a,
        ...ascii('two'),
        0x0a,
        0x10,
        0x04,
        1,
      ]);
      line.socket.write(first);
      await line.until(1);
      const url = `http://127.0.0.1:${(control.address() as { port: number }).port}/state`;
      const state = (await (await fetch(url)).json()) as { unprintedBytes: number };
      expect(state.unprintedBytes).toBeGreaterThan(0);
      sim.set({ dropAfterBytes: 3 });
      line.socket.write(Uint8Array.from(ascii('three\n')));
      await new Promise<void>((r) => line.socket.once('close', () => r()));
      expect(sim.unprinted).toBe(0);
      sim.set({ rowsPerSecond: 100_000 });
      await new Promise((r) => setTimeout(r, 50));
      expect(sim.openJobText()).toBe(''); // "one" and "two" arrived, were confirmed, and are lost
    } finally {
      await new Promise<void>((r) => control.close(() => r()));
    }
  });

  it('a full buffer stops reading the line; what the host sent before closing still prints', async () => {
    sim = await EscPosPrinterSim.start({ rowsPerSecond: 20_000, bufferBytes: 512 });
    const line = await open(sim);
    const text = Array.from({ length: 200 }, (_, i) => `line ${String(i).padStart(3, '0')}\n`).join('');
    line.socket.end(Uint8Array.from([0x1b, 0x40, ...ascii(text), 0x1d, 0x56, 0x00]));
    const [job] = await sim.waitForJobs(1, 30_000);
    expect(job!.text).toBe(text);
    expect(sim.unprinted).toBe(0);
  });
});
