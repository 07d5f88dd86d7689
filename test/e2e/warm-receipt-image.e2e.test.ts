import { afterEach, describe, expect, it } from 'vitest';
import type { ReceiptImageRenderer } from '../../src/core/ports/receipt-renderer.js';
import type { ReceiptLayout } from '../../src/core/receipt/receipt-blocks.js';
import { type Harness, pd, startHarness } from '../support/kasa-harness.js';

/**
 * ADR 1116: `kasa serve` draws the sample receipt once after it starts listening, so the first
 * electronic receipt of a cashier does not pay the drawing code's first use. Nothing fiscal
 * happens with it.
 */
describe('the electronic receipt drawn once when the register starts listening', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  function spyRenderer() {
    const layouts: ReceiptLayout[] = [];
    const renderer: ReceiptImageRenderer = {
      renderPng: (layout) => {
        layouts.push(layout);
        return new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
      },
    };
    return { layouts, renderer };
  }

  async function until(check: () => boolean, ms = 5000): Promise<void> {
    const end = Date.now() + ms;
    while (!check()) {
      if (Date.now() > end) throw new Error('condition not met in time');
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  it('draws one sample receipt after listen, at the printer width, and stores, prints and sends nothing', async () => {
    const spy = spyRenderer();
    h = await startHarness({ renderer: spy.renderer });
    const headBefore = h.kasa.parts.journal.head()?.recordNo;
    const simBefore = h.sim.history().length;
    const jobsBefore = h.printer.history.length;
    // Composed and ready, not yet listening (what the in-process tests use): nothing drawn.
    await new Promise((r) => setTimeout(r, 50));
    expect(spy.layouts).toHaveLength(0);

    await h.kasa.app.listen({ host: '127.0.0.1', port: 0 });
    await until(() => spy.layouts.length > 0);
    await new Promise((r) => setTimeout(r, 50));
    expect(spy.layouts).toHaveLength(1);
    const layout = spy.layouts[0]!;
    expect(layout.width).toBe(h.printer.profile.charsPerLine);
    expect(layout.blocks.some((b) => b.kind === 'qr')).toBe(true);

    expect(h.kasa.parts.journal.head()?.recordNo).toBe(headBefore);
    expect(h.sim.history().length).toBe(simBefore);
    expect(h.printer.history.length).toBe(jobsBefore);
  });

  it('a register closed as soon as it listens does not draw after its close', async () => {
    const spy = spyRenderer();
    const started = await startHarness({ renderer: spy.renderer });
    await started.kasa.app.listen({ host: '127.0.0.1', port: 0 });
    await started.close();
    await new Promise((r) => setTimeout(r, 100));
    expect(spy.layouts).toHaveLength(0);
  });

  it('a renderer that throws at start-up leaves the register answering and drawing real receipts', async () => {
    let calls = 0;
    const renderer: ReceiptImageRenderer = {
      renderPng: () => {
        calls++;
        if (calls === 1) throw new Error('no fonts yet');
        return new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
      },
    };
    h = await startHarness({ renderer });
    const base = await h.kasa.app.listen({ host: '127.0.0.1', port: 0 });
    await until(() => calls === 1);
    const res = await fetch(`${base}/api/document/store`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(pd({ electronicReceipt: true })),
    });
    const body = (await res.json()) as { resultCode: number; document?: { electronicReceipt?: string } };
    expect(body.resultCode).toBe(0);
    expect(body.document?.electronicReceipt).toBe(Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('base64'));
    expect(calls).toBe(2);
  });
});
