import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PathRefused } from '../adapters/checked-paths.js';
import { DEFAULT_PROFILE } from '../config/printer-profile.js';
import { defaultServeConfig } from '../config/serve-config.js';
import { UsageError } from '../config/usage-error.js';
import { composeKasa } from './compose-kasa.js';
import { neverOpens, openPrinter } from './open-printer.js';

describe('start-up order for printers', () => {
  it('--printer chdu with the image-file CHDÚ is refused (exit 2) before anything is created', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'kasa-prn-order-')), 'data');
    const config = defaultServeConfig(dir, { printer: { kind: 'chdu' }, logLevel: 'silent' });
    await expect(composeKasa(config)).rejects.toThrow(UsageError);
    expect(existsSync(join(dir, 'chdu.img'))).toBe(false);
  });

  it('a device printer that is off (no device node) is kept with `offline`, and refused without it (a settings change)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kasa-prn-order-'));
    const target = { kind: 'usb' as const, path: join(dir, 'no-such-lp0'), profile: DEFAULT_PROFILE };
    await expect(openPrinter(target, { dataDir: dir })).rejects.toThrow(UsageError);
    const warnings: string[] = [];
    const printer = await openPrinter(target, { dataDir: dir, offline: (w) => warnings.push(w) });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`--printer usb://${target.path}: the printer cannot be reached now (`);
    expect(warnings[0]).toContain('ENOENT');
    expect(await printer.status()).toMatchObject({ connected: false, fault: 'PRINTER_NOT_CONNECTED' });
    await printer.close();
  });

  it('what switching the printer on cannot cure still stops the start: not a device, no permission', () => {
    expect(
      neverOpens(new PathRefused('/var/lib/kasa/chdu.img is a regular file, not a printer device')),
    ).toBe(true);
    expect(
      neverOpens(
        Object.assign(new Error("EACCES: permission denied, open '/dev/usb/lp0'"), { code: 'EACCES' }),
      ),
    ).toBe(true);
    // serialport's own wording (strerror, no code)
    expect(neverOpens(new Error('Error: Permission denied, cannot open /dev/ttyUSB0'))).toBe(true);
    expect(neverOpens(new Error('Error: No such file or directory, cannot open /dev/ttyUSB0'))).toBe(false);
    expect(
      neverOpens(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9100'), { code: 'ECONNREFUSED' })),
    ).toBe(false);
    expect(
      neverOpens(
        Object.assign(new Error("ENOENT: no such file or directory, open '/dev/usb/lp0'"), {
          code: 'ENOENT',
        }),
      ),
    ).toBe(false);
    expect(neverOpens(new Error('connect timeout to tcp://192.168.1.50:9100'))).toBe(false);
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
