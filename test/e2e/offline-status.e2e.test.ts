import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, type Json, pd, startHarness } from '../support/kasa-harness.js';
import { ManualClock } from '../support/merchant-register.js';
import { storeSettings } from '../support/offline-helpers.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const status = async () => (await h!.get('/api/status/get')).body as Json;
const backlog = (s: Json) =>
  s.components.find((c: { component: string }) => c.component === 'OFFLINE_BACKLOG');
const HOUR = 3600_000;

describe('status of the offline backlog (capability 10, ADR 0702)', () => {
  it('shows the oldest item’s age and time left: OK, WARNING from 24 h left, ERROR when overdue — and the overall state names it', async () => {
    const start = new Date('2026-03-02T10:00:00+01:00');
    const clock = new ManualClock(start);
    h = await startHarness({ clock });
    await storeSettings(h, { resendIntervalMs: 3_600_000, resendMaxIntervalMs: 3_600_000 });
    await h.sim.goOffline();
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(0);

    clock.current = new Date(start.getTime() + 10 * HOUR);
    let s = await status();
    expect(s.state).toBe('READY');
    expect(backlog(s)).toMatchObject({
      state: 'OK',
      details: {
        unsentDocuments: 1,
        oldest: { ageSeconds: 36_000, timeLeftSeconds: 86 * 3600, deadlineState: 'ok' },
      },
    });
    expect(backlog(s).details.oldest.sendBy).toBe('06.03.2026 10:00:00');

    clock.current = new Date(start.getTime() + 72 * HOUR);
    s = await status();
    expect(backlog(s)).toMatchObject({
      state: 'WARNING',
      reasonCode: 600,
      details: { oldest: { deadlineState: 'warning' } },
    });
    expect(s.state).toBe('READY');

    clock.current = new Date(start.getTime() + 97 * HOUR);
    s = await status();
    expect(backlog(s)).toMatchObject({
      state: 'ERROR',
      reasonCode: 600,
      details: { oldest: { deadlineState: 'overdue' } },
    });
    expect(s).toMatchObject({ state: 'SFS_COMMUNICATION_ERROR', reasonCode: 600 });
    // Documents are still issued (offline) past the deadline.
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(0);

    // The deadline is a setting.
    await storeSettings(h, { resendDeadlineHours: 200 });
    expect(backlog(await status()).state).toBe('OK');
  });

  it('a stuck document counts for the deadline: older than every unsent one, it is the oldest in status and in GET /api/report/offline/oldest, and past 96 h it turns the state overdue', async () => {
    const start = new Date('2026-03-02T10:00:00+01:00');
    const clock = new ManualClock(start);
    h = await startHarness({ clock });
    await storeSettings(h, { resendIntervalMs: 3_600_000, resendMaxIntervalMs: 3_600_000 });
    await h.sim.goOffline();
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(0);
    clock.current = new Date(start.getTime() + 10 * HOUR);
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(0);
    // The SFS is back: it rejects document 1; document 2 then meets a failing SFS and stays unsent.
    await h.sim.goOnline();
    h.sim.injectFault({ kind: 'soap-fault', code: -104, text: 'Dátum vytvorenia je neskorší.' });
    h.sim.injectFault({ kind: 'http-error', count: 20 });
    expect((await h.post('/api/document/send/offline', { limit: 1 })).body.documents).toEqual([]);
    const state = (no: number) => h!.kasa.parts.index.findDocument({ by: 'documentNo', documentNo: no })!;
    expect(state(1).sendState).toBe('stuck');
    expect(state(2).sendState).toBe('unsent');

    clock.current = new Date(start.getTime() + 97 * HOUR);
    const s = await status();
    expect(backlog(s).details.oldest).toMatchObject({ internalDocumentId: 1, deadlineState: 'overdue' });
    // The last request (document 2) is not stuck: sales go on, and the overall state names the
    // overdue backlog.
    expect(s).toMatchObject({ state: 'SFS_COMMUNICATION_ERROR', reasonCode: 600 });
    const oldest = (await h.get('/api/report/offline/oldest')).body;
    expect(oldest.documents.map((d: Json) => d.internalDocumentId)).toEqual([1]);
  });

  it('is never READY while documents are refused: an unprinted document names 508', async () => {
    h = await startHarness();
    h.printer.failNext('PRINTER_NO_PAPER');
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(507);
    expect(await status()).toMatchObject({ state: 'LAST_DOCUMENT_NOT_PRINTED', reasonCode: 508 });
    expect((await h.post('/api/document/print', {})).body.resultCode).toBe(0);
    expect((await status()).state).toBe('READY');
  });
});
