import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nodeSha256 } from '../../src/adapters/crypto/node-sha256.js';
import { FiscalError } from '../../src/core/fiscal-error.js';
import { ChduJournal } from '../../src/core/journal/chdu-journal.js';
import type { Chdu } from '../../src/core/ports/chdu.js';
import { mixedRecords } from '../support/journal-fixtures.js';

/**
 * The `Chdu` port contract (capability 3): one suite, run against every adapter — the image file, and
 * the CHDU Lite driver talking to `kasa chdu-sim` over TCP and over a socat pty.
 */
export interface ChduHarness {
  chdu: Chdu;
  /** Bytes the printer behind the CHDÚ received, in order. */
  printed(): Uint8Array[];
  /** Drawer pulses (pin numbers), in order. */
  drawer(): number[];
  /** Closes everything and opens the same storage again (durability, lock persistence). */
  reopen(): Promise<Chdu>;
  /**
   * Tries to open a second writer on the same storage while this one is open (another process
   * or instance on the same image); resolves with it if that was allowed.
   */
  secondWriter(): Promise<Chdu>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  capacityBlocks: number;
  withPrinter: boolean;
}

export type ChduFactory = (options: HarnessOptions) => Promise<ChduHarness>;

const bytes = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff);

async function rejection(p: Promise<unknown>): Promise<FiscalError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!FiscalError.is(e)) throw new Error(`expected a FiscalError, got ${String(e)}`);
  return e;
}

export function chduContract(name: string, factory: ChduFactory): void {
  describe(`Chdu contract: ${name}`, () => {
    let h: ChduHarness;
    let chdu: Chdu;
    const open = async (options: Partial<HarnessOptions> = {}) => {
      h = await factory({ capacityBlocks: 1000, withPrinter: true, ...options });
      chdu = h.chdu;
    };
    beforeEach(async () => {
      await open();
    });
    afterEach(async () => {
      await h.close();
    });

    it('reports the CHDU Lite status, volume serial and firmware', async () => {
      const s = await chdu.status();
      expect(s).toMatchObject({
        protocolVersion: '1.3',
        storageOk: true,
        deviceLocked: false,
        capacityBlocks: 1000,
        freeBlocks: 1000,
        blockDataSize: 505,
        printerReady: true,
      });
      expect(Number.isInteger(s.serial)).toBe(true);
      expect(Number.isInteger(await chdu.volumeSerial())).toBe(true);
      expect(await chdu.firmwareVersion()).toMatch(/\S/);
    });

    it('writes blocks at growing addresses and reads them back with their command and CRC', async () => {
      const data = [bytes(505, 1), bytes(0, 2), bytes(17, 3)];
      const addresses = [];
      for (const d of data) addresses.push(await chdu.write(d));
      expect(addresses).toEqual([0, 1, 2]);
      expect((await chdu.status()).freeBlocks).toBe(997);
      const back = await chdu.read(0, 3);
      expect(back).toEqual(data.map((d, i) => ({ address: i, command: 0xb2, data: d, crcOk: true })));
    });

    it('stops a read at the first never-written address', async () => {
      await chdu.write(bytes(10, 1));
      await chdu.write(bytes(10, 2));
      expect((await chdu.read(1, 50)).map((b) => b.address)).toEqual([1]);
      expect(await chdu.read(2, 5)).toEqual([]);
      expect(await chdu.read(500, 1)).toEqual([]);
    });

    it('refuses data larger than a block with 701 and writes nothing', async () => {
      const e = await rejection(chdu.write(bytes(506, 0)));
      expect(e.resultCode).toBe(701);
      expect((await chdu.status()).freeBlocks).toBe(1000);
    });

    it('forwards WRITE_PRINT data to the printer, from the print offset when given', async () => {
      const whole = new TextEncoder().encode('Hello printer\n');
      const a = await chdu.writeAndPrint(whole);
      const withPrefix = new TextEncoder().encode('KEYtail\n');
      const b = await chdu.writeAndPrint(withPrefix, 3);
      expect([a, b]).toEqual([0, 1]);
      expect(h.printed().map((p) => Array.from(p))).toEqual([
        Array.from(whole),
        Array.from(withPrefix.subarray(3)),
      ]);
      expect(await chdu.read(0, 2)).toEqual([
        { address: 0, command: 0xb3, data: whole, crcOk: true },
        { address: 1, command: 0xb4, data: withPrefix, crcOk: true, printOffset: 3 },
      ]);
    });

    it('opens the drawer on pin 2 and pin 5', async () => {
      await chdu.openDrawer(2);
      await chdu.openDrawer(5);
      expect(h.drawer()).toEqual([2, 5]);
    });

    it('without a printer: WRITE_PRINT and the drawer fail with 100 and nothing is stored', async () => {
      await h.close();
      await open({ withPrinter: false });
      expect((await chdu.status()).printerReady).toBe(false);
      expect((await rejection(chdu.writeAndPrint(bytes(5, 1)))).resultCode).toBe(100);
      expect((await rejection(chdu.openDrawer(2))).resultCode).toBe(100);
      expect((await chdu.status()).freeBlocks).toBe(1000);
    });

    it('answers 202 when full, keeping everything written', async () => {
      await h.close();
      await open({ capacityBlocks: 3 });
      for (let i = 0; i < 3; i++) await chdu.write(bytes(20, i));
      expect((await chdu.status()).freeBlocks).toBe(0);
      expect((await rejection(chdu.write(bytes(20, 9)))).resultCode).toBe(202);
      expect((await chdu.read(0, 10)).length).toBe(3);
    });

    it('locks for ever only with seed XOR magic; then every write is 202 and reads still work', async () => {
      await chdu.write(bytes(8, 1));
      const seed = 0x1234abcd;
      const magic = await chdu.lockRequest(seed);
      expect((await rejection(chdu.lockActivate((seed ^ magic ^ 1) >>> 0))).resultCode).toBe(701);
      expect((await chdu.status()).deviceLocked).toBe(false);
      const magic2 = await chdu.lockRequest(seed);
      await chdu.lockActivate((seed ^ magic2) >>> 0);
      expect((await chdu.status()).deviceLocked).toBe(true);
      expect((await rejection(chdu.write(bytes(8, 2)))).resultCode).toBe(202);
      expect((await rejection(chdu.writeAndPrint(bytes(8, 2)))).resultCode).toBe(202);
      chdu = await h.reopen();
      expect((await chdu.status()).deviceLocked).toBe(true);
      expect((await chdu.read(0, 5)).map((b) => b.address)).toEqual([0]);
    });

    it('keeps every acknowledged block across close and reopen', async () => {
      const data = Array.from({ length: 6 }, (_, i) => bytes(100 + i, i));
      for (const d of data) await chdu.write(d);
      chdu = await h.reopen();
      expect((await chdu.read(0, 10)).map((b) => b.data)).toEqual(data);
      expect(await chdu.write(bytes(3, 3))).toBe(6);
    });

    it('is write-once: nothing a caller can do changes an acknowledged block', async () => {
      const first = [bytes(505, 7), bytes(40, 8)];
      for (const d of first) await chdu.write(d);
      const before = await chdu.read(0, 2);
      const attempts: Array<() => Promise<unknown>> = [
        () => chdu.write(bytes(30, 1)),
        () => chdu.write(bytes(506, 1)), // too long: 701
        () => chdu.writeAndPrint(bytes(30, 2)),
        () => chdu.writeAndPrint(bytes(30, 3), 4),
        () => chdu.writeAndPrint(bytes(30, 3), 99), // offset outside the data: 701
        () => chdu.openDrawer(2),
        () => chdu.read(-1, 1),
        () => chdu.read(0, -1),
        async () => chdu.lockActivate(((await chdu.lockRequest(5)) ^ 5 ^ 1) >>> 0), // wrong key
        ...Array.from({ length: 8 }, (_, i) => () => chdu.write(bytes(30, i))), // concurrent writers
      ];
      const results = await Promise.allSettled(attempts.map((a) => a()));
      const addresses = results.flatMap((r) =>
        r.status === 'fulfilled' && typeof r.value === 'number' ? [r.value] : [],
      );
      expect([...addresses].sort((a, b) => a - b)).toEqual(addresses.map((_, i) => i + 2)); // all new, none shared
      // A second writer on the same storage is refused and writes nothing.
      const second = await h.secondWriter().then(
        async (other) => {
          await other.write(bytes(10, 0)).catch(() => undefined);
          await other.close();
          return 'opened';
        },
        (e: unknown) => (FiscalError.is(e) ? e.resultCode : e),
      );
      expect(second).toBe(200);
      const seed = 0x0badcafe;
      await chdu.lockActivate(((await chdu.lockRequest(seed)) ^ seed) >>> 0);
      expect((await rejection(chdu.write(bytes(5, 5)))).resultCode).toBe(202);
      chdu = await h.reopen();
      const after = await chdu.read(0, 2 + addresses.length + 5);
      expect(after.slice(0, 2)).toEqual(before);
      expect(after).toHaveLength(2 + addresses.length);
      const [again] = await chdu.read(0, 1);
      again?.data.fill(0); // the caller's copy, not the stored block
      expect((await chdu.read(0, 1))[0]?.data).toEqual(first[0]);
    });

    it('carries the fiscal journal: multi-block records, head after reopen, verified chain', async () => {
      const journal = await ChduJournal.open(chdu, { sha256: nodeSha256 });
      const written = [];
      for (const r of mixedRecords(9)) written.push(await journal.append(r));
      written.push(await journal.append({ type: 'free-text', body: { text: 'ä'.repeat(1500) } }));
      chdu = await h.reopen();
      const reopened = await ChduJournal.open(chdu, { sha256: nodeSha256 });
      expect(reopened.head()?.hash).toBe(written.at(-1)?.chainHash);
      const read = [];
      for await (const r of reopened.records()) read.push(r);
      expect(read).toEqual(written);
      expect(await reopened.verify()).toMatchObject({ ok: true, records: 10 });
    });
  });
}
