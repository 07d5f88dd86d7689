import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChduLiteChdu } from '../../src/adapters/chdu/chdu-lite-chdu.js';
import { CallbackPrintSink } from '../../src/adapters/chdu/print-sink.js';
import { nodeSha256 } from '../../src/adapters/crypto/node-sha256.js';
import { SerialTransport, TcpTransport } from '../../src/adapters/transport/byte-transport.js';
import { FiscalError } from '../../src/core/fiscal-error.js';
import { ChduJournal } from '../../src/core/journal/chdu-journal.js';
import { MAX_RECORD_BYTES } from '../../src/core/journal/record-codec.js';
import { ChduLiteEmulator } from '../../src/simulators/chdu/chdu-lite-emulator.js';
import { documentRecord, merchantRecord } from '../support/journal-fixtures.js';

async function code(p: Promise<unknown>): Promise<number> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!FiscalError.is(e)) throw new Error(`expected a FiscalError, got ${String(e)}`);
  return e.resultCode;
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

let dir: string;
let emulator: ChduLiteEmulator;
let chdu: ChduLiteChdu;
const printed: Uint8Array[] = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kasa-faults-'));
  printed.length = 0;
  emulator = await ChduLiteEmulator.start({
    imagePath: join(dir, 'chdu.img'),
    capacityBlocks: 500,
    printer: new CallbackPrintSink((d) => {
      printed.push(d);
    }),
  });
  chdu = new ChduLiteChdu(new TcpTransport('127.0.0.1', emulator.port), emulator.url);
});

afterEach(async () => {
  await chdu.close();
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('CHDU Lite driver: missing device and closed port → 200', () => {
  it('nothing listening on the TCP port', async () => {
    const c = new ChduLiteChdu(new TcpTransport('127.0.0.1', await freePort()), 'chdu-lite+tcp://gone');
    expect(await code(c.status())).toBe(200);
    expect(await code(c.write(Uint8Array.of(1)))).toBe(200);
    await c.close();
  });

  it('a serial device path that does not exist', async () => {
    const c = new ChduLiteChdu(new SerialTransport(join(dir, 'ttyACM9')), 'chdu-lite+serial://missing');
    expect(await code(c.status())).toBe(200);
    await c.close();
  });

  it('the device goes away mid-session and is used again when it comes back', async () => {
    await chdu.write(Uint8Array.of(1, 2, 3));
    const port = emulator.port;
    await emulator.close();
    expect(await code(chdu.write(Uint8Array.of(4)))).toBe(200);
    emulator = await ChduLiteEmulator.start({ imagePath: join(dir, 'chdu.img'), port });
    expect(await chdu.write(Uint8Array.of(4))).toBe(1);
  });

  it('a closed driver answers 200', async () => {
    await chdu.close();
    expect(await code(chdu.status())).toBe(200);
  });
});

describe('CHDU Lite driver: device error bytes → result codes', () => {
  it('EC_HW → 201, STORAGE_OK off; recovers when the fault goes', async () => {
    emulator.inject({ kind: 'hw' });
    expect((await chdu.status()).storageOk).toBe(false);
    expect(await code(chdu.write(Uint8Array.of(1)))).toBe(201);
    expect(await code(chdu.read(0, 1))).toBe(201);
    emulator.clear();
    expect(await chdu.write(Uint8Array.of(1))).toBe(0);
    expect(emulator.history().some((e) => e.answer === 'NAK EC_HW')).toBe(true);
  });

  it('hw:count=N runs out for a host that checks STATUS before writing (kasa): a STATUS showing it counts', async () => {
    const journal = await ChduJournal.open(chdu, { sha256: nodeSha256 });
    emulator.inject({ kind: 'hw', count: 2 });
    expect(await code(journal.append({ type: 'merchant', body: merchantRecord() }))).toBe(201);
    expect(await code(journal.append({ type: 'merchant', body: merchantRecord() }))).toBe(201);
    expect(emulator.faults.list()).toEqual([]);
    expect((await journal.append({ type: 'merchant', body: merchantRecord() })).recordNo).toBe(1);
    emulator.inject({ kind: 'full', count: 1 });
    expect((await chdu.status()).freeBlocks).toBe(0);
    expect((await chdu.status()).freeBlocks).toBeGreaterThan(0);
  });

  it('EC_PRINTER → 100 on WRITE_PRINT and the drawer, PRINTER_READY off; plain writes still work', async () => {
    emulator.inject({ kind: 'printer' });
    expect((await chdu.status()).printerReady).toBe(false);
    expect(await code(chdu.writeAndPrint(Uint8Array.of(0x41)))).toBe(100);
    expect(await code(chdu.openDrawer(2))).toBe(100);
    expect(await chdu.write(Uint8Array.of(1))).toBe(0);
    expect(printed).toEqual([]);
  });

  it('EC_BUSY → 300, then the next command goes through', async () => {
    emulator.inject({ kind: 'busy', count: 1 });
    expect(await code(chdu.write(Uint8Array.of(1)))).toBe(300);
    expect(await chdu.write(Uint8Array.of(1))).toBe(0);
  });

  it('a full device → 202 (STATUS shows no free block)', async () => {
    emulator.inject({ kind: 'full' });
    expect((await chdu.status()).freeBlocks).toBe(0);
    expect(await code(chdu.write(Uint8Array.of(1)))).toBe(202);
  });

  it('EC_LOCKED → 202 after the device was locked', async () => {
    const magic = await chdu.lockRequest(7);
    await chdu.lockActivate((7 ^ magic) >>> 0);
    expect(await code(chdu.write(Uint8Array.of(1)))).toBe(202);
    expect(emulator.history().at(-1)?.answer).toBe('NAK EC_LOCKED');
  });

  it('a device that does not answer within 1 s → 200; it is used again once it answers', async () => {
    emulator.inject({ kind: 'mute' });
    const started = Date.now();
    expect(await code(chdu.status())).toBe(200);
    expect(Date.now() - started).toBeLessThan(1000 + 1500);
    emulator.clear();
    expect((await chdu.status()).storageOk).toBe(true);
  });

  it('a dropped connection → 200; a refused one too, until the fault is cleared', async () => {
    await chdu.status();
    emulator.inject({ kind: 'disconnect' });
    expect(await code(chdu.status())).toBe(200);
    expect(await code(chdu.status())).toBe(200);
    emulator.clear();
    expect((await chdu.status()).storageOk).toBe(true);
  });
});

describe('journal over the driver: 200, 201, 203 with nothing half-written', () => {
  it('203: an oversized record sends no WRITE at all', async () => {
    const journal = await ChduJournal.open(chdu, { sha256: nodeSha256 });
    emulator.reset();
    const big = { type: 'free-text' as const, body: { text: 'x'.repeat(MAX_RECORD_BYTES) } };
    expect(await code(journal.append(big))).toBe(203);
    expect(emulator.history().filter((e) => e.command.startsWith('WRITE'))).toEqual([]);
    expect((await chdu.status()).freeBlocks).toBe(500);
  });

  it('201: EC_HW in the middle of a record leaves a fragment that is rejected as a whole', async () => {
    const journal = await ChduJournal.open(chdu, { sha256: nodeSha256 });
    const first = await journal.append({ type: 'merchant', body: merchantRecord() });
    emulator.inject({ kind: 'hw', afterWrites: 2, count: 1 });
    const long = { type: 'free-text' as const, body: { text: 'ž'.repeat(1200) } };
    expect(await code(journal.append(long))).toBe(201);
    expect(journal.head()?.recordNo).toBe(1);

    const reopened = await ChduJournal.open(chdu, { sha256: nodeSha256 });
    expect(reopened.head()?.hash).toBe(first.chainHash);
    const again = await reopened.append(long);
    expect(again.recordNo).toBe(2);
    const all = [];
    for await (const r of reopened.records()) all.push(r.recordNo);
    expect(all).toEqual([1, 2]);
    expect(await reopened.verify()).toMatchObject({ ok: true, records: 2, fragments: 1 });
    // The journal that saw the error re-reads the head before its next append.
    expect((await journal.append({ type: 'document', body: documentRecord(1) })).recordNo).toBe(3);
  });

  it('200: the port closes; the append fails whole and the next one after reconnecting continues the chain', async () => {
    const journal = await ChduJournal.open(chdu, { sha256: nodeSha256 });
    await journal.append({ type: 'merchant', body: merchantRecord() });
    emulator.inject({ kind: 'disconnect', afterWrites: 1 });
    expect(await code(journal.append({ type: 'free-text', body: { text: 'q'.repeat(2000) } }))).toBe(200);
    emulator.clear();
    const next = await journal.append({ type: 'document', body: documentRecord(1) });
    expect(next.recordNo).toBe(2);
    expect(await journal.verify()).toMatchObject({ ok: true, records: 2, fragments: 1 });
  });

  it('a WRITE carried out whose ACK is lost: the caller gets 200, the record stays, its number is not reused', async () => {
    const fast = new ChduLiteChdu(new TcpTransport('127.0.0.1', emulator.port), emulator.url, {
      timeoutMs: 300,
    });
    try {
      const journal = await ChduJournal.open(fast, { sha256: nodeSha256 });
      await journal.append({ type: 'merchant', body: merchantRecord() });
      const long = { type: 'free-text' as const, body: { text: 'ž'.repeat(1200) } }; // 5 blocks
      emulator.inject({ kind: 'lost-ack', afterWrites: 4, count: 1 }); // the record's last block
      expect(await code(journal.append(long))).toBe(200);
      expect(emulator.history().some((h) => h.answer.includes('answer lost'))).toBe(true);
      // The record is complete on the device although the caller was told it failed.
      const next = await journal.append({ type: 'document', body: documentRecord(1) });
      expect(next.recordNo).toBe(3);
      const all = [];
      for await (const r of journal.records()) all.push([r.recordNo, r.type]);
      expect(all).toEqual([
        [1, 'merchant'],
        [2, 'free-text'],
        [3, 'document'],
      ]);
      expect(await journal.verify()).toMatchObject({ ok: true, records: 3, fragments: 0 });
      // A one-block record whose only ACK is lost: the same.
      emulator.inject({ kind: 'lost-ack', count: 1 });
      expect(await code(journal.append({ type: 'free-text', body: { text: 'short' } }))).toBe(200);
      expect((await journal.append({ type: 'free-text', body: { text: 'after' } })).recordNo).toBe(5);
    } finally {
      await fast.close();
    }
  });

  it('an append with print data forwards it through WRITE_PRINT_OFFSET after the record', async () => {
    const journal = await ChduJournal.open(chdu, { sha256: nodeSha256 });
    const text = new TextEncoder().encode('PRINT ME\n'.repeat(80));
    const r = await journal.append({ type: 'free-text', body: { text: 'PRINT ME' } }, { print: text });
    expect(Buffer.concat(printed)).toEqual(Buffer.from(text));
    const second = await journal.append({ type: 'document', body: documentRecord(1) });
    expect(second.recordNo).toBe(r.recordNo + 1);
    expect((await ChduJournal.open(chdu, { sha256: nodeSha256 })).head()?.recordNo).toBe(2);
    emulator.inject({ kind: 'printer' });
    const e = await journal
      .append({ type: 'free-text', body: { text: 'x' } }, { print: text })
      .catch((x: unknown) => x);
    expect(FiscalError.is(e, 'PRINTER_NOT_READY') && e.details?.recordNo).toBe(3);
    expect(await journal.verify()).toMatchObject({ ok: true, records: 3 });
  });
});
