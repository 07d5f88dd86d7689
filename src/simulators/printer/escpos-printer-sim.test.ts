import { connect } from 'node:net';
import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EscPosPrinterSim } from './escpos-printer-sim.js';
import { startPrinterControl } from './printer-sim-control.js';

let sim: EscPosPrinterSim;
beforeEach(async () => {
  sim = await EscPosPrinterSim.start();
});
afterEach(async () => sim.close());

/** Sends bytes on a fresh connection and collects what the printer answers. */
async function send(bytes: Uint8Array, expectAnswers = 0): Promise<number[]> {
  const socket = connect({ host: sim.host, port: sim.port });
  const answers: number[] = [];
  socket.on('data', (b: Buffer) => answers.push(...b));
  socket.on('error', () => undefined); // a drop fault resets the line on purpose
  await new Promise<void>((r) => socket.once('connect', () => r()));
  socket.write(bytes);
  const until = Date.now() + 5000;
  while (answers.length < expectAnswers && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  socket.end();
  return answers;
}

const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));

describe('kasa printer-sim decodes ESC/POS from any encoder', () => {
  it('bytes written by hand: code page, alignment, emphasis, size, native QR, drawer, cut', async () => {
    const qr = ascii('O-7DBCDA8A56EE426DBCDA8A56EE426D1A');
    const bytes = Uint8Array.from([
      0x1b,
      0x40,
      0x1b,
      0x74,
      18, // ESC @, ESC t 18 (PC852)
      0x1b,
      0x70,
      0x01,
      0x19,
      0xfa, // drawer, pin 5
      0x1b,
      0x61,
      0x01,
      0x1d,
      0x21,
      0x11,
      ...ascii('V'),
      0xb5,
      ...ascii('BER'),
      0x0a, // "VÁBER" centred, double (Á = 0xB5)
      0x1d,
      0x21,
      0x00,
      0x1b,
      0x61,
      0x00,
      0x1b,
      0x21,
      0x08,
      ...ascii('SUMA 5.00'),
      0x0a, // bold via ESC !
      0x1b,
      0x45,
      0x00,
      0x1b,
      0x2d,
      0x01,
      ...ascii('x'),
      0x1b,
      0x2d,
      0x00,
      0x09,
      ...ascii('y'),
      0x0a,
      0x1d,
      0x28,
      0x6b,
      4,
      0,
      0x31,
      0x41,
      0x32,
      0, // QR model 2
      0x1d,
      0x28,
      0x6b,
      3,
      0,
      0x31,
      0x43,
      6,
      0x1d,
      0x28,
      0x6b,
      qr.length + 3,
      0,
      0x31,
      0x50,
      0x30,
      ...qr,
      0x1d,
      0x28,
      0x6b,
      3,
      0,
      0x31,
      0x51,
      0x30,
      0x1b,
      0x64,
      0x03, // print and feed 3 lines
      0x1d,
      0x56,
      0x00, // full cut
    ]);
    await send(bytes);
    const [job] = await sim.waitForJobs(1);
    expect(job!.text).toBe(
      `${' '.repeat(21)}VÁBER\nSUMA 5.00\nx y\n    [QR: O-7DBCDA8A56EE426DBCDA8A56EE426D1A]\n\n\n\n`,
    );
    expect(job!.qrCodes).toEqual(['O-7DBCDA8A56EE426DBCDA8A56EE426D1A']);
    expect(job!.drawerKicks).toEqual([5]);
    expect(job!.cut).toBe(true);
  });

  it('bytes from @point-of-sale/receipt-printer-encoder: text in CP852, a bit-image QR in column mode, cut', async () => {
    const QRCode = (await import('qrcode')).default;
    const symbol = QRCode.create('https://ekasa.financnasprava.sk/mdu/?q=1', { errorCorrectionLevel: 'M' });
    const scale = 6;
    const side = Math.ceil(((symbol.modules.size + 8) * scale) / 24) * 24;
    const data = new Uint8ClampedArray(side * side * 4).fill(255);
    for (let r = 0; r < symbol.modules.size; r++) {
      for (let c = 0; c < symbol.modules.size; c++) {
        if (!symbol.modules.get(r, c)) continue;
        for (let dy = 0; dy < scale; dy++) {
          for (let dx = 0; dx < scale; dx++) {
            const i = (((r + 4) * scale + dy) * side + (c + 4) * scale + dx) * 4;
            data[i] = 0;
            data[i + 1] = 0;
            data[i + 2] = 0;
          }
        }
      }
    }
    const bytes = new ReceiptPrinterEncoder({ language: 'esc-pos', columns: 48, imageMode: 'column' })
      .initialize()
      .codepage('cp852')
      .line('Ďakujeme, príďte zas!')
      .bold(true)
      .line('Žltý kôň')
      .bold(false)
      .image({ data, width: side, height: side }, side, side, 'threshold', 128)
      .cut('partial')
      .encode();
    await send(bytes);
    const [job] = await sim.waitForJobs(1);
    expect(job!.text.startsWith('Ďakujeme, príďte zas!\nŽltý kôň\n')).toBe(true);
    expect(job!.qrCodes).toEqual(['https://ekasa.financnasprava.sk/mdu/?q=1']);
    expect(job!.notes).toEqual([]);
  });

  it('answers DLE EOT truthfully, and its control port changes the condition', async () => {
    const control = await startPrinterControl(sim, 0);
    const url = `http://127.0.0.1:${(control.address() as { port: number }).port}`;
    const ask = () => send(Uint8Array.from([0x10, 0x04, 1, 0x10, 0x04, 2, 0x10, 0x04, 3, 0x10, 0x04, 4]), 4);
    expect(await ask()).toEqual([0x12, 0x12, 0x12, 0x12]);
    const post = (body: unknown) =>
      fetch(`${url}/state`, { method: 'POST', body: JSON.stringify(body) }).then(
        (r) => r.json() as Promise<{ state: unknown }>,
      );
    await post({ paper: 'out' });
    expect(await ask()).toEqual([0x1a, 0x32, 0x12, 0x72]);
    await post({ paper: 'near-end', coverOpen: true });
    expect(await ask()).toEqual([0x1a, 0x16, 0x12, 0x1e]);
    await post({ coverOpen: false, overheated: true });
    expect(await ask()).toEqual([0x1a, 0x52, 0x52, 0x1e]);
    expect((await fetch(`${url}/state`, { method: 'POST', body: '{"paper":"gone"}' })).status).toBe(400);
    // While not ready nothing is printed.
    await send(Uint8Array.from([0x1b, 0x40, ...ascii('lost'), 0x0a, 0x1d, 0x56, 0x01]));
    expect(sim.jobs).toHaveLength(0);
    // Drop after N bytes: exactly N bytes are taken, the line closes.
    await post({ overheated: false, paper: 'ok', dropAfterBytes: 6 });
    await send(Uint8Array.from([0x1b, 0x40, ...ascii('abcd'), 0x0a, 0x1d, 0x56, 0x01]));
    expect(sim.openJobText()).toBe('');
    expect(sim.state().dropAfterBytes).toBeUndefined();
    await new Promise<void>((r) => control.close(() => r()));
  });
});
