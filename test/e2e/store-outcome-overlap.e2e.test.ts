import { afterEach, describe, expect, it } from 'vitest';
import type { ImageIo, ImageIoOpener } from '../../src/adapters/chdu/image-io.js';
import { openImageIo } from '../../src/adapters/chdu/image-io.js';
import { pngRenderer } from '../../src/compose/documents.js';
import { type Harness, pd, startHarness } from '../support/kasa-harness.js';

/**
 * ADR 1109: while a store's SFS outcome is being flushed to the CHDÚ, the receipt is laid out (or
 * drawn, for an electronic receipt) — and nothing is printed or answered before that write is done.
 */
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** CHDÚ writes and receipt drawings in the order they happened, once `armed`. */
function timeline() {
  const events: string[] = [];
  let release: () => void = () => undefined;
  const t = {
    armed: false,
    events,
    /** The document's write (write 1) waits for `release()` while this is set. */
    holdDocument: false,
    held: new Promise<void>((resolve) => {
      release = resolve;
    }),
    release: () => release(),
    opener: (async (path, writable, durable) => {
      const io = await openImageIo(path, writable, durable);
      let n = 0;
      const wrapped: ImageIo = {
        ...io,
        durableWrites: io.durableWrites,
        async write(buf, position) {
          if (!t.armed) return io.write(buf, position);
          const no = ++n;
          events.push(`write ${no} starts`);
          if (no === 1 && t.holdDocument) await t.held;
          await io.write(buf, position);
          events.push(`write ${no} done`);
        },
      };
      return wrapped;
    }) as ImageIoOpener,
  };
  return t;
}

describe('a store: its records’ flushes and the work that can go on meanwhile (ADR 1109)', () => {
  it('sends the SFS request only once the document record is written', async () => {
    const t = timeline();
    h = await startHarness({ imageIo: t.opener });
    const sim = h.sim;
    const before = sim.history().length;
    t.armed = true;
    t.holdDocument = true;
    const storing = h.post('/api/document/store', pd());
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(t.events).toEqual(['write 1 starts']);
    expect(sim.history()).toHaveLength(before); // signed meanwhile, not sent
    t.release();
    const res = await storing;
    t.armed = false;
    expect(res.body.resultCode).toBe(0);
    expect(res.body.document.uuid).toMatch(/^O-/); // registered online
    expect(sim.history()).toHaveLength(before + 1);
  });

  it('draws the electronic receipt while the outcome is flushed; the print record and the answer follow it', async () => {
    const t = timeline();
    const png = pngRenderer(576);
    h = await startHarness({
      imageIo: t.opener,
      renderer: {
        renderPng: (layout, images) => {
          if (t.armed) t.events.push('receipt drawn');
          return png.renderPng(layout, images);
        },
      },
    });
    t.armed = true;
    const res = await h.post('/api/document/store', pd({ electronicReceipt: true }));
    t.armed = false;
    expect(res.body.resultCode).toBe(0);
    expect(res.body.document.electronic).toBe(true);
    // Write 1: the document; write 2: the SFS outcome; write 3: the print record.
    expect(t.events).toEqual([
      'write 1 starts',
      'write 1 done',
      'write 2 starts',
      'receipt drawn',
      'write 2 done',
      'write 3 starts',
      'write 3 done',
    ]);
  });

  it('draws the same electronic receipt from the records written as the index gives once they are in (a replay)', async () => {
    // ADR 1109 draws the receipt from `WrittenDocument.derived()` before the outcome is in the
    // index; an idempotent replay draws it from the index. Both must be the same PNG.
    h = await startHarness();
    const key = { 'idempotency-key': 'overlap-derived-1' };
    const first = await h.post('/api/document/store', pd({ electronicReceipt: true }), key);
    expect(first.body.resultCode).toBe(0);
    expect(first.body.document.electronic).toBe(true);
    const png = first.body.document.electronicReceipt;
    expect(typeof png).toBe('string');
    expect(png.length).toBeGreaterThan(100);
    const again = await h.post('/api/document/store', pd({ electronicReceipt: true }), key);
    expect(again.body.resultCode).toBe(0);
    expect(again.body.document.uuid).toBe(first.body.document.uuid);
    expect(again.body.document.electronicReceipt).toBe(png);
  });

  it('prints a paper receipt only after its outcome is durable', async () => {
    const t = timeline();
    h = await startHarness({ imageIo: t.opener });
    const printer = h.printer;
    const jobsAtWrite: number[] = [];
    t.armed = true;
    const original = t.events.push.bind(t.events);
    t.events.push = (...items: string[]) => {
      for (const item of items) if (item.endsWith('done')) jobsAtWrite.push(printer.history.length);
      return original(...items);
    };
    const res = await h.post('/api/document/store', pd());
    t.armed = false;
    expect(res.body.resultCode).toBe(0);
    // No job on the paper when the document and its outcome were written; one at the print record.
    expect(jobsAtWrite).toEqual([0, 0, 1]);
    expect(printer.history.filter((j) => j.kind === 'receipt')).toHaveLength(1);
  });
});
