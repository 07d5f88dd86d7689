import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ACK,
  BEL,
  CMD,
  EC,
  EOT,
  encodeCommand,
  encodeRead,
  encodeWrite,
  NAK,
  NUL,
} from '../../src/adapters/chdu/chdu-lite-codec.js';
import { slotOffset } from '../../src/adapters/chdu/image-layout.js';
import { ByteReader } from '../../src/adapters/transport/byte-reader.js';
import type { WireOptions } from '../../src/simulators/chdu/chdu-lite-device.js';
import { ChduLiteEmulator } from '../../src/simulators/chdu/chdu-lite-emulator.js';

/** The emulator must be as strict as the device: raw bytes in, raw bytes out. */
let dir: string;
let emulator: ChduLiteEmulator;
let socket: Socket;
let reader: ByteReader;

const hex = (s: string) =>
  Uint8Array.from(
    s
      .trim()
      .split(/\s+/)
      .map((h) => Number.parseInt(h, 16)),
  );
const send = (b: Uint8Array) => new Promise<void>((r) => socket.write(b, () => r()));
const expectBytes = async (expected: Uint8Array, ms = 500) =>
  expect(Array.from(await reader.readBytes(expected.length, ms))).toEqual(Array.from(expected));

async function start(options: WireOptions = {}): Promise<void> {
  emulator = await ChduLiteEmulator.start({
    imagePath: join(dir, 'chdu.img'),
    capacityBlocks: 100,
    serial: 0x01020304,
    ...options,
  });
  socket = connect({ host: '127.0.0.1', port: emulator.port });
  reader = new ByteReader();
  socket.on('data', (b: Buffer) => reader.push(b));
  await new Promise<void>((r) => socket.once('connect', () => r()));
}

/** Another device: the same image, other wire options. */
async function restart(options: WireOptions): Promise<void> {
  socket.destroy();
  await emulator.close();
  await start(options);
}

/** A WRITE and its whole answer, acknowledged as the strict device wants: ACK, address frame, ‹ACK›, EOT. */
async function write(data: Uint8Array, address: number): Promise<void> {
  await send(encodeWrite(data));
  await expectBytes(Uint8Array.of(ACK, 0x02, 0x04, 0x00, address, 0, 0, 0, EOT));
  await send(Uint8Array.of(ACK));
  await expectBytes(Uint8Array.of(EOT));
}

/** Flips one stored byte of block 0 in the image, so its stored CRC fails. */
function damageBlock0(): void {
  const fd = openSync(join(dir, 'chdu.img'), 'r+');
  const one = Buffer.alloc(1);
  readSync(fd, one, 0, 1, slotOffset(0) + 9);
  writeSync(fd, Uint8Array.of(one[0]! ^ 0xff), 0, 1, slotOffset(0) + 9);
  closeSync(fd);
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kasa-emu-'));
  await start();
});

afterEach(async () => {
  socket.destroy();
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('CHDU Lite emulator on the wire', () => {
  it('ignores bytes before STX; STATUS: ACK and a 24-byte frame, then after the host ACK an EOT', async () => {
    await send(hex('00 FF 06 02 01 00 5A 04'));
    await expectBytes(hex('06 02 18 00 03 01'));
    const rest = await reader.readBytes(22 + 1, 500);
    expect(Array.from(rest.subarray(2, 6))).toEqual([0x04, 0x03, 0x02, 0x01]); // serial
    expect(rest.at(-1)).toBe(EOT);
    await send(Uint8Array.of(ACK));
    await expectBytes(Uint8Array.of(EOT));
  });

  it('answers NAK EC_TIMEOUT to a frame not completed within 1 s', async () => {
    await send(hex('02 05 00 B2 41'));
    const started = Date.now();
    await expectBytes(Uint8Array.of(NAK, EC.TIMEOUT), 2500);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('answers NAK EC_FRAME to an over-long LEN, EC_COMMAND to an unknown command, EC_PARAM to bad arguments', async () => {
    await send(hex('02 FB 01'));
    await expectBytes(Uint8Array.of(NAK, EC.FRAME));
    await send(encodeCommand(0x77));
    await expectBytes(Uint8Array.of(NAK, EC.COMMAND));
    await send(encodeCommand(CMD.STATUS, Uint8Array.of(1)));
    await expectBytes(Uint8Array.of(NAK, EC.PARAM));
    await send(encodeCommand(CMD.READ, Uint8Array.of(0, 0, 0, 0)));
    await expectBytes(Uint8Array.of(NAK, EC.PARAM));
  });

  it('WRITE answers the new address (acknowledged, then EOT); READ beyond the written blocks is NAK EC_BLOCK', async () => {
    await send(encodeWrite(hex('41 42')));
    await expectBytes(hex('06 02 04 00 00 00 00 00 04'));
    await send(Uint8Array.of(ACK));
    await expectBytes(hex('04'));
    await send(encodeWrite(hex('43')));
    await expectBytes(hex('06 02 04 00 01 00 00 00 04'));
    await send(Uint8Array.of(NAK)); // "repeat": the same frame again
    await expectBytes(hex('02 04 00 01 00 00 00 04'));
    await send(Uint8Array.of(ACK));
    await expectBytes(hex('04'));
    await send(encodeRead(2, 1));
    await expectBytes(Uint8Array.of(NAK, EC.BLOCK));
  });

  it('a data frame the host does not acknowledge within 1 s fails the exchange; a command sent instead is lost', async () => {
    await send(encodeCommand(CMD.VOLUME_SERIAL));
    await reader.readBytes(1 + 8, 500);
    // The host goes on without ACK: its STX is taken as the (wrong) answer, the rest is noise.
    await send(encodeCommand(CMD.NOP));
    await new Promise((r) => setTimeout(r, 300));
    expect(reader.buffered).toBe(0);
    expect(emulator.history().at(-1)?.answer).toBe('ACK, data frame not acknowledged by the host');
    await send(encodeCommand(CMD.NOP));
    await expectBytes(Uint8Array.of(ACK));
    // Silence: after 1 s the device gives up and takes the next command.
    await send(encodeCommand(CMD.VOLUME_SERIAL));
    await reader.readBytes(1 + 8, 500);
    await new Promise((r) => setTimeout(r, 1100));
    expect(reader.buffered).toBe(0); // no EOT: the transfer failed
    await send(encodeCommand(CMD.NOP));
    await expectBytes(Uint8Array.of(ACK));
  });

  it('without requireHostAck and trailingEot (ADR 0104 as first decided): one frame, no EOT, a stray ACK ignored', async () => {
    await restart({ requireHostAck: false, trailingEot: false });
    await send(encodeWrite(hex('41 42')));
    await expectBytes(hex('06 02 04 00 00 00 00 00 04'));
    await send(Uint8Array.of(ACK)); // not expected: an idle device ignores it
    await send(encodeWrite(hex('43')));
    await expectBytes(hex('06 02 04 00 01 00 00 00 04'));
    await send(encodeCommand(CMD.NOP));
    await expectBytes(Uint8Array.of(ACK));
  });

  it('READ (spec text): ACK + frame per block, repeated after the host NAKs, EOT at the end', async () => {
    await write(hex('41 42'), 0);
    await write(hex('43'), 1);
    await send(encodeRead(0, 5));
    const first = hex('06 02 03 00 B2 41 42 04');
    await expectBytes(first);
    await send(Uint8Array.of(NAK));
    await expectBytes(first);
    await send(Uint8Array.of(ACK));
    await expectBytes(hex('06 02 02 00 B2 43 04'));
    await send(Uint8Array.of(ACK));
    await expectBytes(Uint8Array.of(EOT));
  });

  it('READ (public driver): the command ACK, then per block STX LEN DATA, the host ACK, and an end byte', async () => {
    await restart({ readShape: 'public-driver' });
    await write(hex('41 42'), 0);
    await write(hex('43'), 1);
    await send(encodeRead(0, 5));
    await expectBytes(hex('06 02 03 00 B2 41 42'));
    await send(Uint8Array.of(NAK));
    await expectBytes(hex('02 03 00 B2 41 42'));
    await send(Uint8Array.of(ACK));
    await expectBytes(hex('06 02 02 00 B2 43')); // end byte ACK (block 0 fine), then block 1
    await send(Uint8Array.of(ACK));
    await expectBytes(hex('04')); // end byte EOT: block 1 fine and the last
    await send(encodeRead(0, 1));
    await expectBytes(hex('06 02 03 00 B2 41 42'));
    await send(Uint8Array.of(ACK));
    await expectBytes(hex('04'));
    await new Promise((r) => setTimeout(r, 100));
    expect(reader.buffered).toBe(0);
  });

  it('READ: NUL cancels, silence cancels after 1 s, and the device takes the next command', async () => {
    await write(hex('41'), 0);
    await send(encodeRead(0, 1));
    await expectBytes(hex('06 02 02 00 B2 41 04'));
    await send(Uint8Array.of(NUL));
    await send(encodeCommand(CMD.NOP));
    await expectBytes(Uint8Array.of(ACK));
    await send(encodeRead(0, 1));
    await expectBytes(hex('06 02 02 00 B2 41 04'));
    await new Promise((r) => setTimeout(r, 1200));
    expect(reader.buffered).toBe(0); // no EOT: the transfer was abandoned
    await send(encodeCommand(CMD.NOP));
    await expectBytes(Uint8Array.of(ACK));
  });

  it('READ (spec text): a block whose stored CRC does not match comes with the lead BEL', async () => {
    await write(hex('41 42 43'), 0);
    damageBlock0();
    await send(encodeRead(0, 1));
    expect(await reader.readByte(500)).toBe(BEL);
  });

  it('READ (public driver): that block is answered with the end byte BEL; an EOT follows when the count is not reached', async () => {
    await restart({ readShape: 'public-driver' });
    await write(hex('41 42 43'), 0);
    damageBlock0();
    await send(encodeRead(0, 1));
    await expectBytes(hex('06 02 04 00 B2'));
    await reader.readBytes(3, 500);
    await send(Uint8Array.of(ACK));
    await expectBytes(hex('07'));
    await send(encodeRead(0, 2));
    await expectBytes(hex('06 02 04 00 B2'));
    await reader.readBytes(3, 500);
    await send(Uint8Array.of(ACK));
    await expectBytes(hex('07 04'));
  });
});
