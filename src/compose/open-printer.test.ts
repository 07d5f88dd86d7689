import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultServeConfig } from '../config/serve-config.js';
import { UsageError } from '../config/usage-error.js';
import { composeKasa } from './compose-kasa.js';

describe('start-up order for printers', () => {
  it('--printer chdu with the image-file CHDÚ is refused (exit 2) before anything is created', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'kasa-prn-order-')), 'data');
    const config = defaultServeConfig(dir, { printer: { kind: 'chdu' }, logLevel: 'silent' });
    await expect(composeKasa(config)).rejects.toThrow(UsageError);
    expect(existsSync(join(dir, 'chdu.img'))).toBe(false);
  });

  it('a device printer that cannot be opened is refused (exit 2) before the CHDÚ is created', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'kasa-prn-order-')), 'data');
    const config = defaultServeConfig(dir, {
      printer: { kind: 'usb', path: join(dir, 'no-such-lp0') },
      logLevel: 'silent',
    });
    await expect(composeKasa(config)).rejects.toThrow(/--printer usb:\/\//);
    expect(existsSync(join(dir, 'chdu.img'))).toBe(false);
  });

  it('--printer usb:// naming a regular file is refused (exit 2) saying so; the file keeps its bytes (ADR 0426)', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'kasa-prn-order-')), 'data');
    mkdirSync(dir);
    const file = join(dir, 'other.img');
    writeFileSync(file, Buffer.alloc(64, 0x41));
    const config = defaultServeConfig(dir, { printer: { kind: 'usb', path: file }, logLevel: 'silent' });
    const e = await composeKasa(config).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(UsageError);
    expect((e as Error).message).toContain(`${file} is a regular file, not a printer device`);
    expect(readFileSync(file)).toEqual(Buffer.alloc(64, 0x41));
    expect(existsSync(join(dir, 'chdu.img'))).toBe(false);
  });
});
