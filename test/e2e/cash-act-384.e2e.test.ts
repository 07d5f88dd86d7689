import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/kasa-harness.js';
import { ManualClock } from '../support/merchant-register.js';
import { storeSettings } from '../support/offline-helpers.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('cash documents under Act 384/2025 (capability 10, ADR 0704)', () => {
  it('from 1 January 2026 VK and VY are stored, numbered and printed but never sent; the answer says so plainly', async () => {
    h = await startHarness({ clock: new ManualClock(new Date('2026-03-02T10:15:30+01:00')) });
    const deposit = await h.post('/api/cash', { amount: 100 });
    const withdrawal = await h.post('/api/cash', { amount: -40 });
    for (const [res, type, sequenceId] of [
      [deposit, 'VK', 1],
      [withdrawal, 'VY', 2],
    ] as const) {
      expect(res.body.resultCode).toBe(0);
      expect(res.body.cash).toMatchObject({ documentType: type, sequenceId, sendingCount: 0 });
      expect(res.body.cash.uuid).toBeUndefined();
      expect(res.body.cash.status.warning).toMatchObject({ warningType: 'NOT_SENT' });
      expect(res.body.cash.status.warning.message).toContain('Act 384/2025');
      expect(res.body.cash.status.warning.warningType).not.toBe('OFFLINE');
    }
    expect(h.sim.history()).toHaveLength(0);
    expect(h.printer.history.filter((j) => j.kind === 'receipt').map((j) => j.reference)).toEqual([
      '202603/1',
      '202603/2',
    ]);
    expect(h.kasa.parts.index.findDocument({ by: 'last' })?.sendState).toBe('not-sent');
    // Not sent by law is not offline: no OFF-LINE heading, the reason instead, PKP and OKP (ADR 0515).
    for (const job of h.printer.history.filter((j) => j.kind === 'receipt')) {
      expect(job.text).not.toContain('OFF-LINE');
      expect(job.text.replace(/\s+/g, ' ')).toContain('Neodosiela sa do e-kasa (zákon 384/2025 Z. z.)');
      expect(job.text).toContain('PKP:');
      expect(job.text).toContain('OKP:');
      expect(job.text).not.toContain('UID:');
    }
    // Never queued, never reported as waiting, never sent by the background sender.
    expect((await h.post('/api/report/offline', {})).body).toEqual({
      resultCode: 0,
      documents: [],
      locations: [],
      totalItems: 0,
      moreItems: false,
    });
    expect((await h.post('/api/document/send/offline', {})).body.documents).toEqual([]);
    expect(h.sim.history()).toHaveLength(0);
  });

  it('before 1 January 2026 (Bratislava, by CreateDate) they are sent; one second later they are not', async () => {
    const clock = new ManualClock(new Date('2025-12-31T23:59:59+01:00'));
    h = await startHarness({ clock });
    const before = await h.post('/api/cash', { amount: 100 });
    expect(before.body.resultCode).toBe(0);
    expect(before.body.cash.uuid).toMatch(/^O-/);
    expect(before.body.cash.status).toEqual({});
    expect(h.sim.history().map((e) => e.receiptType)).toEqual(['VK']);

    clock.current = new Date('2026-01-01T00:00:00+01:00');
    const after = await h.post('/api/cash', { amount: -50 });
    expect(after.body.cash.status.warning.warningType).toBe('NOT_SENT');
    expect(h.sim.history()).toHaveLength(1);
  });

  it('the forceSendCashDocuments setting sends them in 2026 (test environments)', async () => {
    h = await startHarness({ clock: new ManualClock(new Date('2026-03-02T10:15:30+01:00')) });
    await storeSettings(h, { forceSendCashDocuments: true });
    const res = await h.post('/api/cash', { amount: 100 });
    expect(res.body.cash.uuid).toMatch(/^O-/);
    expect(h.sim.history().map((e) => e.receiptType)).toEqual(['VK']);
  });
});
