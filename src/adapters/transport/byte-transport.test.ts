import { EventEmitter } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FiscalError } from '../../core/fiscal-error.js';
import { ChduLiteChdu } from '../chdu/chdu-lite-chdu.js';
import { type SerialPortLike, SerialTransport } from './byte-transport.js';

/** A serial port that opens and accepts bytes but whose output never drains (flow control held). */
class StuckPort extends EventEmitter implements SerialPortLike {
  isOpen = false;
  writes = 0;
  open(cb: (e: Error | null) => void): void {
    this.isOpen = true;
    setImmediate(() => cb(null));
  }
  write(_data: Buffer, cb: (e: Error | null | undefined) => void): boolean {
    this.writes++;
    setImmediate(() => cb(undefined));
    return false;
  }
  drain(_cb: (e: Error | null) => void): void {
    // never drains
  }
  close(cb: (e: Error | null) => void): void {
    this.isOpen = false;
    setImmediate(() => {
      cb(null);
      this.emit('close');
    });
  }
}

describe('SerialTransport', () => {
  it('says what a path is when it is no serial device (ADR 0426), and leaves the file as it was', async () => {
    const image = join(mkdtempSync(join(tmpdir(), 'kasa-serial-')), 'chdu.img');
    writeFileSync(image, Buffer.alloc(64, 0x41));
    for (const [path, kind] of [
      [image, 'a regular file'],
      ['/dev/null', 'a memory device'],
    ] as const) {
      const transport = new SerialTransport(path, 115200);
      await expect(transport.open(), path).rejects.toThrow(`${path} is ${kind}, not a serial device`);
      expect(transport.isOpen).toBe(false);
    }
    expect(readFileSync(image)).toEqual(Buffer.alloc(64, 0x41));
  });

  it('bounds a write whose output never drains; the driver answers 200 and can retry', async () => {
    const ports: StuckPort[] = [];
    const transport = new SerialTransport('/dev/ttyFAKE', 115200, {
      writeTimeoutMs: 150,
      createPort: async () => {
        const p = new StuckPort();
        ports.push(p);
        return p;
      },
    });
    const chdu = new ChduLiteChdu(transport, 'chdu-lite+serial:///dev/ttyFAKE');
    const started = Date.now();
    const e = await chdu.status().catch((x: unknown) => x);
    expect(FiscalError.is(e) && e.resultCode).toBe(200);
    expect(Date.now() - started).toBeLessThan(150 + 1000); // bounded: limit + margin
    expect(ports[0]?.isOpen).toBe(false); // the line was dropped to resynchronise
    expect(FiscalError.is(await chdu.status().catch((x: unknown) => x))).toBe(true);
    expect(ports).toHaveLength(2); // reopened for the next command
    await chdu.close();
  });
});
