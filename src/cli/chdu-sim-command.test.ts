import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChduLiteChdu } from '../adapters/chdu/chdu-lite-chdu.js';
import { ByteReader } from '../adapters/transport/byte-reader.js';
import { TcpTransport } from '../adapters/transport/byte-transport.js';
import { FiscalError } from '../core/fiscal-error.js';
import type { ChduLiteEmulator } from '../simulators/chdu/chdu-lite-emulator.js';
import { registerChduSimCommand } from './chdu-sim-command.js';
import { type CliIo, runCli } from './program.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kasa-chdu-sim-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function code(p: Promise<unknown>): Promise<number | undefined> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  return FiscalError.is(e) ? e.resultCode : undefined;
}

/** `kasa chdu-sim ARGS` run in-process until `stop()`; resolves once the device listens. */
async function startChduSim(
  args: string[],
  io: CliIo,
): Promise<{ emulator: ChduLiteEmulator; control: number; stop(): Promise<void> }> {
  let stop!: () => void;
  const stopped = new Promise<void>((r) => {
    stop = r;
  });
  let running: Promise<unknown> = Promise.resolve();
  const ready = new Promise<{ emulator: ChduLiteEmulator; control: number }>((resolve) => {
    const program = new Command('kasa').exitOverride();
    registerChduSimCommand(program, io, {
      started: (emulator, control) => resolve({ emulator, control: control!.port }),
      stop: stopped,
    });
    running = program.parseAsync(['chdu-sim', ...args], { from: 'user' });
  });
  const { emulator, control } = await ready;
  return {
    emulator,
    control,
    stop: async () => {
      stop();
      await running;
    },
  };
}

describe('kasa chdu-sim', () => {
  it('--help names every fault kind --fault accepts, lost-ack included', async () => {
    const out: string[] = [];
    const io: CliIo = { env: {}, cwd: dir, stdout: (t) => out.push(t), stderr: (t) => out.push(t) };
    expect(await runCli(['chdu-sim', '--help'], io, '0.0.0')).toBe(0);
    const help = out.join('').replace(/\s+/g, ' ');
    expect(help).toContain('hw|printer|busy|full|disconnect|mute|lost-ack[:after=N,afterPrints=N,count=N]');
    expect(help).toContain('--read-shape <shape>');
    expect(help).toContain('--no-host-ack');
    expect(help).toContain('--no-trailing-eot');
  });

  it('--read-shape public-driver --no-host-ack --no-trailing-eot: the device speaks that reading of the wire', async () => {
    const io: CliIo = { env: {}, cwd: dir, stdout: () => undefined, stderr: () => undefined };
    const sim = await startChduSim(
      [
        '--image',
        'sim.img',
        '--capacity',
        '10',
        '--read-shape',
        'public-driver',
        '--no-host-ack',
        '--no-trailing-eot',
        '--control-port',
        '0',
      ],
      io,
    );
    const { emulator, control } = sim;
    const socket = connect({ host: '127.0.0.1', port: emulator.port });
    const reader = new ByteReader();
    socket.on('data', (b: Buffer) => reader.push(b));
    await new Promise<void>((r) => socket.once('connect', () => r()));
    const bytes = async (n: number) => Array.from(await reader.readBytes(n, 500));
    try {
      expect(emulator.wire).toEqual({
        readShape: 'public-driver',
        requireHostAck: false,
        trailingEot: false,
      });
      const state = (await (await fetch(`http://127.0.0.1:${control}/state`)).json()) as { wire: unknown };
      expect(state.wire).toEqual(emulator.wire);
      // WRITE "A": ACK and the address frame; no ACK awaited, no EOT after it.
      socket.write(Uint8Array.of(0x02, 0x02, 0x00, 0xb2, 0x41, 0x04));
      expect(await bytes(9)).toEqual([0x06, 0x02, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04]);
      // READ 0, 1 at once (no ACK sent): the public driver's framing, frame without EOT.
      socket.write(Uint8Array.of(0x02, 0x09, 0x00, 0xb1, 0, 0, 0, 0, 1, 0, 0, 0, 0x04));
      expect(await bytes(6)).toEqual([0x06, 0x02, 0x02, 0x00, 0xb2, 0x41]);
      socket.write(Uint8Array.of(0x06));
      expect(await bytes(1)).toEqual([0x04]);
      await new Promise((r) => setTimeout(r, 100));
      expect(reader.buffered).toBe(0);
    } finally {
      socket.destroy();
      await sim.stop();
    }
  });

  it('serves the image with start-up faults, prints to a file, and takes faults over the control interface', async () => {
    const out: string[] = [];
    const io: CliIo = { env: {}, cwd: dir, stdout: (t) => out.push(t), stderr: () => undefined };
    const sim = await startChduSim(
      [
        '--image',
        'sim.img',
        '--capacity',
        '100',
        '--printer',
        'file:paper.bin',
        '--fault',
        'busy:count=1',
        '--control-port',
        '0',
      ],
      io,
    );
    const { emulator, control } = sim;
    expect(out.join('')).toContain(`chdu-sim listening on ${emulator.url}`);
    const chdu = new ChduLiteChdu(new TcpTransport('127.0.0.1', emulator.port), emulator.url);
    try {
      expect(await code(chdu.status())).toBe(300);
      expect((await chdu.status()).capacityBlocks).toBe(100);
      await chdu.writeAndPrint(new TextEncoder().encode('paper\n'));
      expect(readFileSync(join(dir, 'paper.bin'), 'utf8')).toBe('paper\n');

      const base = `http://127.0.0.1:${control}`;
      const injected = await fetch(`${base}/faults`, {
        method: 'POST',
        body: JSON.stringify({ spec: 'hw' }),
      });
      expect(injected.status).toBe(200);
      expect(await code(chdu.write(Uint8Array.of(1)))).toBe(201);
      expect((await fetch(`${base}/faults/hw`, { method: 'DELETE' })).status).toBe(200);
      expect(await chdu.write(Uint8Array.of(1))).toBe(1);
      const state = (await (await fetch(`${base}/state`)).json()) as {
        usedBlocks: number;
        history: Array<{ answer: string }>;
      };
      expect(state.usedBlocks).toBe(2);
      expect(state.history.map((h) => h.answer)).toContain('NAK EC_HW');
      expect((await fetch(`${base}/faults`, { method: 'POST', body: '{"kind":"lava"}' })).status).toBe(400);
    } finally {
      await chdu.close();
      await sim.stop();
    }
  });
});
