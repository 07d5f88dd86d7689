import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PathRefused } from '../checked-paths.js';
import { DeviceFileTransport } from './device-file-transport.js';

// The transport over a real device is tested by the printer contract suite over a socat pty
// (test/contract/printer.test.ts); here only what it must never open.
describe('DeviceFileTransport (ADR 0426)', () => {
  it('refuses a regular file before a byte is written: the line stays closed, the file as it was', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kasa-usb-'));
    const image = join(dir, 'chdu.img');
    const bytes = Buffer.alloc(64, 0x41);
    writeFileSync(image, bytes);
    const transport = new DeviceFileTransport(image, { what: 'a printer device' });
    const e = await transport.open().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(PathRefused);
    expect((e as Error).message).toBe(`${image} is a regular file, not a printer device`);
    expect(transport.isOpen).toBe(false);
    // DLE EOT 1, the status probe an ESC/POS printer adapter sends first.
    await expect(transport.write(Uint8Array.of(0x10, 0x04, 0x01))).rejects.toThrow(/not open/);
    expect(readFileSync(image)).toEqual(bytes);
  });
});
