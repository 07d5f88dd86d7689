import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE } from '../config/printer-profile.js';
import { layoutFreeText } from '../core/receipt/free-text-layout.js';
import { VirtualPrinter } from '../simulators/printer/virtual-printer.js';
import { SwappablePrinter, withDefaults } from './swappable-printer.js';

describe('SwappablePrinter', () => {
  it('adds the configured pacing to jobs whose request gives none; the request wins', async () => {
    expect(withDefaults(undefined, { windowSize: 0, printDelay: 0 })).toBeUndefined();
    expect(withDefaults(undefined, { windowSize: 2500, printDelay: 5000 })).toEqual({
      windowSize: 2500,
      printDelay: 5000,
    });
    expect(withDefaults({ windowSize: 100 }, { windowSize: 2500, printDelay: 5000 })).toEqual({
      windowSize: 100,
      printDelay: 5000,
    });
    const virtual = new VirtualPrinter();
    const printer = new SwappablePrinter({ printer: virtual, profile: DEFAULT_PROFILE }, () => ({
      windowSize: 2500,
      printDelay: 10,
    }));
    await printer.print({ kind: 'text', layout: layoutFreeText('ahoj', 48) });
    expect(virtual.history[0]?.options).toEqual({ windowSize: 2500, printDelay: 10 });
  });

  it('answers for the printer in force: target, width, profile', async () => {
    const a = new VirtualPrinter();
    const b = new VirtualPrinter({ charsPerLine: 32 });
    const printer = new SwappablePrinter({ printer: a, profile: DEFAULT_PROFILE });
    expect(printer.charsPerLine).toBe(48);
    printer.swap({ printer: b, profile: b.profile });
    expect(printer.charsPerLine).toBe(32);
    expect(printer.profile.paperWidthDots).toBe(384);
    expect(printer.current).toBe(b);
    expect((await printer.status()).charsPerLine).toBe(32);
    await printer.close();
  });

  it('status never waits for a job on a printer the settings just replaced: it answers busy (ADR 0514)', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((ok) => {
      release = ok;
    });
    class HeldPrinter extends VirtualPrinter {
      override async print(...args: Parameters<VirtualPrinter['print']>) {
        await held;
        return super.print(...args);
      }
    }
    const old = new HeldPrinter();
    const printer = new SwappablePrinter({ printer: old, profile: DEFAULT_PROFILE });
    const job = printer.print({ kind: 'text', layout: layoutFreeText('ahoj', 48) });
    const next = new VirtualPrinter({ charsPerLine: 32 });
    printer.swap({ printer: next, profile: next.profile });
    const status = await printer.status();
    expect(status.busy).toBe(true);
    release();
    await job;
    await printer.close();
  });
});
