import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChduLiteChdu, type ChduLiteOptions } from '../../src/adapters/chdu/chdu-lite-chdu.js';
import { READ_SHAPES } from '../../src/adapters/chdu/chdu-lite-codec.js';
import { slotOffset } from '../../src/adapters/chdu/image-layout.js';
import { type ByteTransport, TcpTransport } from '../../src/adapters/transport/byte-transport.js';
import { FiscalError } from '../../src/core/fiscal-error.js';
import { ChduLiteEmulator } from '../../src/simulators/chdu/chdu-lite-emulator.js';
import { fiscalFailure } from '../support/fiscal-failure.js';
import { ScriptedChduLite, type Step } from '../support/scripted-chdu-lite.js';

/**
 * The driver where the readings of the wire differ (ADR 0104 §2 and §6, amended) and after a failed
 * exchange (M1). Device bytes are written by hand here, not produced by the codec.
 */
const hex = (s: string) =>
  Uint8Array.from(
    s
      .trim()
      .split(/\s+/)
      .map((h) => Number.parseInt(h, 16)),
  );
const send = (s: string, delayMs?: number): Step =>
  delayMs === undefined ? { send: hex(s) } : { send: hex(s), delayMs };
const expectAck: Step = { expect: 0x06 };

async function code(p: Promise<unknown>): Promise<number> {
  return (await fiscalFailure(p)).resultCode;
}

const STATUS_FRAME = '02 18 00 03 01 01 00 04 03 02 01 E8 03 00 00 E8 03 00 00 F9 01 00 00 00 00 00 00 04';

let scripted: ScriptedChduLite | undefined;
let chdu: ChduLiteChdu | undefined;

async function driverFor(
  script: (cmd: number, args: Uint8Array, n: number) => Step[],
  options: ChduLiteOptions = {},
): Promise<ChduLiteChdu> {
  scripted = await ScriptedChduLite.start(script);
  chdu = new ChduLiteChdu(new TcpTransport('127.0.0.1', scripted.port), 'chdu-lite+tcp://scripted', options);
  return chdu;
}

afterEach(async () => {
  await chdu?.close();
  await scripted?.close();
  chdu = undefined;
  scripted = undefined;
});

describe('output data frames (ADR 0104 §6, amended)', () => {
  it('acknowledges every output data frame: STATUS, VOLUME_SERIAL, VERSION2, a WRITE address, the LOCK magic', async () => {
    const c = await driverFor((cmd) => {
      if (cmd === 0x5a) return [send(`06 ${STATUS_FRAME}`), expectAck];
      if (cmd === 0x5c) return [send('06 02 04 00 31 2E 33 00 04'), expectAck];
      if (cmd === 0xb2) return [send('06 02 04 00 00 00 00 00 04'), expectAck];
      return [send('06 02 04 00 78 56 34 12 04'), expectAck]; // VOLUME_SERIAL, LOCK_REQUEST
    });
    expect((await c.status()).serial).toBe(0x01020304);
    expect(await c.volumeSerial()).toBe(0x12345678);
    expect(await c.firmwareVersion()).toBe('1.3');
    expect(await c.write(hex('41'))).toBe(0);
    expect(await c.lockRequest(1)).toBe(0x12345678);
    await scripted!.settled();
    expect(scripted!.mismatches).toEqual([]);
    // The host's bytes: each command frame, then ACK once its data frame is in.
    expect(scripted!.fromHost.slice(0, 6)).toEqual(Array.from(hex('02 01 00 5A 04 06')));
    expect(scripted!.fromHost.filter((b) => b === 0x06)).toHaveLength(5);
  });

  it('works with a device that waits for that ACK (the emulator by default) and one that does not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kasa-wire-'));
    try {
      for (const requireHostAck of [true, false]) {
        const emulator = await ChduLiteEmulator.start({
          imagePath: join(dir, `${requireHostAck}.img`),
          capacityBlocks: 10,
          requireHostAck,
        });
        const c = new ChduLiteChdu(new TcpTransport('127.0.0.1', emulator.port), emulator.url);
        try {
          expect((await c.status()).freeBlocks).toBe(10);
          expect(await c.write(hex('41'))).toBe(0);
          expect(await c.write(hex('42'))).toBe(1);
          expect((await c.status()).freeBlocks).toBe(8);
          // The last entry is written once the host's ACK is in (or its 1 s is up).
          await vi.waitFor(() => expect(emulator.history()).toHaveLength(4), { timeout: 1500 });
          expect(emulator.history().map((h) => h.answer)).toEqual(['ACK', 'ACK', 'ACK', 'ACK']);
        } finally {
          await c.close();
          await emulator.close();
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an EOT closing the last data transfer that comes after the next command was sent is not taken as its answer', async () => {
    const c = await driverFor((cmd) => {
      if (cmd === 0x5a) return [send(`06 ${STATUS_FRAME}`), expectAck];
      // Late: the STATUS transfer's closing EOT, after this command arrived.
      if (cmd === 0x5b) return [send('04'), send('06 02 04 00 07 00 00 00 04'), expectAck];
      if (cmd === 0xb1) return [send('04'), send('06 02 02 00 B2 41 04'), expectAck, send('04')];
      return [send('04'), send('06')]; // OPEN_DRAWER
    });
    expect((await c.status()).capacityBlocks).toBe(1000);
    expect(await c.volumeSerial()).toBe(7);
    // The EOT owed by VOLUME_SERIAL, then the block (not an empty transfer).
    expect((await c.read(0, 1)).map((b) => b.data)).toEqual([hex('41')]);
    await c.openDrawer(2);
    await scripted!.settled();
    expect(scripted!.mismatches).toEqual([]);
  });

  it('READ answered with EOT at once, when no EOT is owed, is an empty transfer', async () => {
    const c = await driverFor((cmd) => (cmd === 0xb1 ? [send('04')] : [send('06')]));
    await c.openDrawer(2);
    expect(await c.read(0, 3)).toEqual([]);
  });
});

describe.each(READ_SHAPES)('READ as the %s reading frames it, against the emulator', (readShape) => {
  let dir: string;
  let emulator: ChduLiteEmulator;
  let driver: ChduLiteChdu;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kasa-wire-'));
    emulator = await ChduLiteEmulator.start({
      imagePath: join(dir, 'chdu.img'),
      capacityBlocks: 50,
      readShape,
    });
    driver = new ChduLiteChdu(new TcpTransport('127.0.0.1', emulator.port), emulator.url);
  });
  afterEach(async () => {
    await driver.close();
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('marks the one block whose stored CRC fails, wherever it stands in the transfer', async () => {
    for (const d of ['41 42', '43 44', '45 46', '47 48']) await driver.write(hex(d));
    const fd = openSync(join(dir, 'chdu.img'), 'r+');
    const one = Buffer.alloc(1);
    readSync(fd, one, 0, 1, slotOffset(1) + 9);
    writeSync(fd, Uint8Array.of(one[0]! ^ 0xff), 0, 1, slotOffset(1) + 9);
    closeSync(fd);
    const crc = async (start: number, count: number) => (await driver.read(start, count)).map((b) => b.crcOk);
    expect(await crc(0, 4)).toEqual([true, false, true, true]);
    expect(await crc(1, 1)).toEqual([false]);
    expect(await crc(0, 2)).toEqual([true, false]);
    expect(await crc(1, 10)).toEqual([false, true, true]);
    expect((await driver.read(0, 4)).map((b) => Array.from(b.data))).toEqual([
      [0x41, 0x42],
      [0x43, 0x44 ^ 0xff],
      [0x45, 0x46],
      [0x47, 0x48],
    ]);
    expect((await driver.status()).freeBlocks).toBe(46);
  });

  it('once the device has shown its framing, a READ past the written end does not wait', async () => {
    for (const d of ['41', '42', '43']) await driver.write(hex(d));
    expect(await driver.read(0, 3)).toHaveLength(3);
    const started = Date.now();
    expect((await driver.read(1, 100)).map((b) => b.address)).toEqual([1, 2]);
    expect((await driver.read(2, 2)).map((b) => b.address)).toEqual([2]);
    expect(Date.now() - started).toBeLessThan(500);
    expect(await driver.write(hex('44'))).toBe(3);
  });
});

describe('READ while the framing is not known yet', () => {
  const block = (data: string) =>
    `02 ${(data.split(' ').length + 1).toString(16).padStart(2, '0')} 00 B2 ${data}`;

  it('an EOT after the first block, before the count: the spec text goes on at once', async () => {
    const c = await driverFor(() => [
      send(`06 ${block('41')} 04`),
      expectAck,
      send(`07 ${block('42')} 04`),
      expectAck,
      send('04'),
    ]);
    const started = Date.now();
    expect((await c.read(0, 5)).map((b) => [b.data[0], b.crcOk])).toEqual([
      [0x41, true],
      [0x42, false],
    ]);
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('silence after an EOT before the count proves no framing: a NUL, a quiet line, then the next address asked again', async () => {
    // A public-driver device that ended early: the second READ, of the next address, is refused
    // as never written (EC_BLOCK), so the one block is the whole answer.
    const c = await driverFor(
      (_cmd, args, n) => {
        if (n === 0) return [send(`06 ${block('41')}`), expectAck, send('04')];
        expect(args[0]).toBe(1); // from the next address
        return [send('15 06')];
      },
      { resyncQuietMs: 100 },
    );
    expect((await c.read(0, 5)).map((b) => [b.address, b.data[0]])).toEqual([[0, 0x41]]);
    expect(scripted!.fromHost).toContain(0x00); // NUL: cancels a device that was merely slow
    await scripted!.settled();
    expect(scripted!.mismatches).toEqual([]);
  });
});

describe('a stall of kasa’s own thread during a READ (spec-text emulator)', () => {
  it('never yields a short READ or a block under another address', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kasa-chdu-stall-'));
    const emulator = await ChduLiteEmulator.start({ imagePath: join(dir, 'c.img'), capacityBlocks: 50 });
    const line = new TcpTransport('127.0.0.1', emulator.port);
    const c = new ChduLiteChdu(line, emulator.url);
    try {
      for (const d of [0x41, 0x42, 0x43, 0x44, 0x45]) await c.write(Uint8Array.of(d));
      // One synchronous stall of 1.2 s (a long collection, a big JSON) right after the host's
      // first ACK of a READ block: the device's next lead is then "late".
      let stall = true;
      const write = line.write.bind(line);
      line.write = async (bytes: Uint8Array) => {
        await write(bytes);
        if (stall && bytes.length === 1 && bytes[0] === 0x06) {
          stall = false;
          const until = Date.now() + 1200;
          while (Date.now() < until) {
            // busy: the event loop is blocked
          }
        }
      };
      const blocks = (r: Awaited<ReturnType<typeof c.read>>) => r.map((b) => [b.address, b.data[0]]);
      const all = [
        [0, 0x41],
        [1, 0x42],
        [2, 0x43],
        [3, 0x44],
        [4, 0x45],
      ];
      const first = await c.read(0, 5).then(blocks, (e: unknown) => (FiscalError.is(e) ? e.resultCode : e));
      // Either the whole transfer or a failure (200), never a part of it taken for the end.
      expect([200, JSON.stringify(all)]).toContain(typeof first === 'number' ? first : JSON.stringify(first));
      expect(blocks(await c.read(0, 5))).toEqual(all);
      expect(blocks(await c.read(2, 3))).toEqual(all.slice(2));
      expect(await c.write(Uint8Array.of(0x46))).toBe(5);
    } finally {
      await c.close();
      await emulator.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('READ frames the driver never takes', () => {
  const block = (data: string) =>
    `02 ${(data.split(' ').length + 1).toString(16).padStart(2, '0')} 00 B2 ${data}`;

  it('spec text: a frame with an unknown block command is asked again (NAK); the repeat is taken', async () => {
    const c = await driverFor(() => [
      send('06 02 02 00 99 41 04'),
      { expect: 0x15 },
      send(`06 ${block('41')} 04`),
      expectAck,
      send('04'),
    ]);
    expect(await c.read(0, 1)).toEqual([{ address: 0, command: 0xb2, data: hex('41'), crcOk: true }]);
    await scripted!.settled();
    expect(scripted!.mismatches).toEqual([]);
  });

  it('public driver: a frame with LEN 0 is asked again (NAK); the repeat is taken', async () => {
    const c = await driverFor(() => [
      send('06 02 00 00'),
      { expect: 0x15 },
      send(block('41')),
      expectAck,
      send('06'),
      send(block('42')),
      expectAck,
      send('04'),
    ]);
    expect((await c.read(0, 2)).map((b) => Array.from(b.data))).toEqual([[0x41], [0x42]]);
    await scripted!.settled();
    expect(scripted!.mismatches).toEqual([]);
  });

  it('a device that has shown the spec-text framing and then leaves a frame without EOT: 201, cancelled with NUL', async () => {
    const c = await driverFor((_cmd, _args, n) =>
      n === 0
        ? [send(`06 ${block('41')} 04`), expectAck, send(`06 ${block('42')} 04`), expectAck, send('04')]
        : [send(`06 ${block('41')}`), expectAck, send('06'), { expect: 0x00 }],
    );
    expect(await c.read(0, 2)).toHaveLength(2);
    expect(await code(c.read(0, 2))).toBe(201);
    await scripted!.settled();
    expect(scripted!.mismatches).toEqual([]);
  });

  it('a device that has shown the public-driver framing and then sends a lead before a block: 201', async () => {
    const c = await driverFor((_cmd, _args, n) =>
      n === 0
        ? [send(`06 ${block('41')}`), expectAck, send('06'), send(block('42')), expectAck, send('04')]
        : [send(`06 ${block('41')}`), expectAck, send('06'), send(`06 ${block('42')}`), { expect: 0x00 }],
    );
    expect(await c.read(0, 2)).toHaveLength(2);
    expect(await code(c.read(0, 2))).toBe(201);
    await scripted!.settled();
    expect(scripted!.mismatches).toEqual([]);
  });
});

describe('after a failed exchange (M1)', () => {
  const address = (a: number) => `06 02 04 00 ${a.toString(16).padStart(2, '0')} 00 00 00 04`;

  it('a late answer to a timed-out WRITE, delivered when the port reopens, is not taken as the next answer', async () => {
    const c = await driverFor((_cmd, _args, n) =>
      n === 1 ? [send(address(n), 1300)] : [send(address(n)), expectAck],
    );
    expect(await c.write(hex('41'))).toBe(0);
    expect(await code(c.write(hex('42')))).toBe(200);
    expect(await c.write(hex('43'))).toBe(2);
    expect(await c.write(hex('44'))).toBe(3);
    expect(scripted!.commands.map((x) => x.cmd)).toEqual([0xb2, 0xb2, 0xb2, 0xb2]);
  });

  it('a WRITE answered with another block than the next free one is 201, not an address', async () => {
    const answers = [0, 5, 6, 9];
    const c = await driverFor((_cmd, _args, n) => [send(address(answers[n]!)), expectAck]);
    expect(await c.write(hex('41'))).toBe(0);
    expect(await code(c.write(hex('42')))).toBe(201);
    // After a failure the next block is not known: the answer is taken, and known again after it.
    expect(await c.writeAndPrint(hex('43'))).toBe(6);
    expect(await code(c.writeAndPrint(hex('44 45'), 1))).toBe(201);
  });

  it('a line that drops as the ACK to a whole WRITE answer goes out: the address stands; the line is reopened', async () => {
    let opens = 0;
    let open = false;
    let written = 0;
    const data: Array<(b: Uint8Array) => void> = [];
    const closed: Array<() => void> = [];
    const transport: ByteTransport = {
      description: 'fake line',
      get isOpen() {
        return open;
      },
      async open() {
        opens++;
        open = true;
      },
      async write(bytes) {
        if (!open) throw new Error('not open');
        if (bytes[0] === 0x02) {
          const answer = hex(`06 02 04 00 ${(written++).toString(16).padStart(2, '0')} 00 00 00 04`);
          setImmediate(() => {
            for (const l of data) l(answer);
          });
          return;
        }
        // The ACK: the line has just dropped.
        open = false;
        for (const l of closed) l();
        throw new Error('EPIPE');
      },
      onData: (l) => data.push(l),
      onClose: (l) => closed.push(l),
      async close() {
        open = false;
      },
    };
    chdu = new ChduLiteChdu(transport, 'fake', { resyncQuietMs: 20 });
    expect(await chdu.write(hex('41'))).toBe(0);
    expect(await chdu.write(hex('42'))).toBe(1);
    expect(opens).toBe(2);
  });

  it('a WRITE answered with a frame that is not 4 bytes (e.g. a late STATUS) is 201', async () => {
    const c = await driverFor(() => [send(`06 ${STATUS_FRAME}`), expectAck]);
    expect(await code(c.write(hex('41')))).toBe(201);
  });

  it('a line that does not fall quiet after a failure is not used (200) until it does', async () => {
    // No answer; from 250 ms on (after the driver's 200 ms limit) noise every 50 ms until 1 s.
    const chatter = [send('FF', 250), ...Array.from({ length: 15 }, () => send('FF', 50))];
    const c = await driverFor((_cmd, _args, n) => (n === 0 ? chatter : [send('06')]), {
      timeoutMs: 200,
      resyncQuietMs: 100,
    });
    expect(await code(c.openDrawer(2))).toBe(200);
    expect(await code(c.openDrawer(2))).toBe(200);
    expect(scripted!.commands).toHaveLength(1); // nothing was sent into the noise
    await scripted!.settled();
    await c.openDrawer(2);
    expect(scripted!.commands).toHaveLength(2);
  });
});
