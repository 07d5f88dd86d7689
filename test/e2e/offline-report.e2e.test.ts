import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timerScheduler } from '../../src/adapters/scheduling/timer-scheduler.js';
import type { Scheduler } from '../../src/core/ports/scheduler.js';
import { formatApiDateTime, parseApiDateTime } from '../../src/core/time.js';
import { type Harness, type Json, pd, startHarness } from '../support/kasa-harness.js';
import { ManualClock } from '../support/merchant-register.js';
import { storeSettings } from '../support/offline-helpers.js';

/** Records the pauses the report asks for (printDelay), and sleeps for real unless told not to. */
const sleeps: number[] = [];
let sleepForReal = true;
const recording: Scheduler = {
  after: (ms, task) => timerScheduler.after(ms, task),
  sleep: (ms) => {
    sleeps.push(ms);
    return sleepForReal ? timerScheduler.sleep(ms) : Promise.resolve();
  },
};

let h: Harness;
const START = new Date('2026-11-10T08:00:00+01:00');
/** createDate (API text) of document n: one minute apart. */
const createOf = (n: number) => formatApiDateTime(new Date(START.getTime() + (n - 1) * 60_000));

beforeAll(async () => {
  const clock = new ManualClock(START);
  h = await startHarness({ clock, scheduler: recording });
  // No retries while the report is read: the queue stays as it is.
  await storeSettings(h, { resendIntervalMs: 3_600_000, resendMaxIntervalMs: 3_600_000 });
  await h.sim.goOffline();
  for (let n = 1; n <= 250; n++) {
    clock.current = new Date(START.getTime() + (n - 1) * 60_000);
    const res = await h.post('/api/document/store', pd());
    expect(res.body.resultCode).toBe(0);
  }
}, 600_000);
afterAll(async () => h.close());

const ids = (body: Json) => body.documents.map((d: { internalDocumentId: number }) => d.internalDocumentId);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('the offline report on a queue of 250 (capability 10)', () => {
  it('{} lists everything in creation order, as OfflineReportResponse with the offline status', async () => {
    const res = await h.post('/api/report/offline', {});
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(range(1, 250));
    expect(res.body.locations).toEqual([]);
    expect(res.body.documents[0]).toMatchObject({
      createDate: createOf(1),
      sequenceId: 1,
      sendingCount: 1,
      status: { warning: { warningType: 'OFFLINE' } },
    });
    expect(res.body.documents[0].uuid).toBeUndefined();
  });

  it('limit and offset are exact', async () => {
    expect(ids((await h.post('/api/report/offline', { limit: 10 })).body)).toEqual(range(1, 10));
    expect(ids((await h.post('/api/report/offline', { offset: 70 })).body)).toEqual(range(71, 250));
    expect(ids((await h.post('/api/report/offline', { offset: 70, limit: 5 })).body)).toEqual(range(71, 75));
    expect(ids((await h.post('/api/report/offline', { offset: 245, limit: 10 })).body)).toEqual(
      range(246, 250),
    );
    expect(ids((await h.post('/api/report/offline', { offset: 250 })).body)).toEqual([]);
    expect(ids((await h.post('/api/report/offline', { limit: 1000 })).body)).toEqual(range(1, 250));
  });

  it('says how many items match in all and whether more follow the page, so a POS can page on (ADR 0716)', async () => {
    const page = async (body: Json) => {
      const { totalItems, moreItems, documents } = (await h.post('/api/report/offline', body)).body;
      return { totalItems, moreItems, listed: documents.length };
    };
    expect(await page({})).toEqual({ totalItems: 250, moreItems: false, listed: 250 });
    expect(await page({ limit: 100 })).toEqual({ totalItems: 250, moreItems: true, listed: 100 });
    expect(await page({ offset: 200, limit: 50 })).toEqual({ totalItems: 250, moreItems: false, listed: 50 });
    expect(await page({ offset: 200, limit: 49 })).toEqual({ totalItems: 250, moreItems: true, listed: 49 });
    expect(await page({ offset: 300 })).toEqual({ totalItems: 250, moreItems: false, listed: 0 });
    expect(await page({ offlineDocumentsFilter: { to: createOf(20) }, limit: 10 })).toEqual({
      totalItems: 20,
      moreItems: true,
      listed: 10,
    });
    // Paging by moreItems reaches every item exactly once.
    const seen: number[] = [];
    for (let offset = 0, more = true; more; ) {
      const res = (await h.post('/api/report/offline', { offset, limit: 64 })).body;
      seen.push(...ids(res));
      offset += res.documents.length + res.locations.length;
      more = res.moreItems;
    }
    expect(seen).toEqual(range(1, 250));
  });

  it('filters sequenceId, from and to in any combination, with limit and offset', async () => {
    const f = (filter: Json, extra: Json = {}) =>
      h.post('/api/report/offline', { offlineDocumentsFilter: filter, ...extra }).then((r) => ids(r.body));
    expect(await f({ sequenceId: 13 })).toEqual([13]);
    expect(await f({ from: createOf(200) })).toEqual(range(200, 250));
    expect(await f({ to: createOf(5) })).toEqual(range(1, 5));
    expect(await f({ from: createOf(100), to: createOf(120) })).toEqual(range(100, 120));
    expect(await f({ from: createOf(100), to: createOf(120) }, { offset: 3, limit: 4 })).toEqual(
      range(103, 106),
    );
    expect(await f({ sequenceId: 110, from: createOf(100), to: createOf(120) })).toEqual([110]);
    expect(await f({ sequenceId: 13, from: createOf(100) })).toEqual([]);
    // ISO 8601 with an offset is accepted as well as dd.MM.yyyy HH:mm:ss.
    const iso = parseApiDateTime(createOf(240))!.toISOString();
    expect(await f({ from: iso })).toEqual(range(240, 250));
  });

  it('refuses a bad request with 701 naming the field', async () => {
    const cases: Array<[Json, string]> = [
      [{ limit: 0 }, 'limit'],
      [{ limit: 1001 }, 'limit'],
      [{ offset: -1 }, 'offset'],
      [{ offlineDocumentsFilter: { from: '2026-13-01' } }, 'offlineDocumentsFilter.from'],
      [{ offlineDocumentsFilter: { from: createOf(10), to: createOf(9) } }, 'offlineDocumentsFilter.to'],
      [{ offlineDocumentsFilter: { sequenceId: 0 } }, 'offlineDocumentsFilter.sequenceId'],
      [{ printer: { printDelay: 60_001 } }, 'printer.printDelay'],
    ];
    for (const [body, field] of cases) {
      expect((await h.post('/api/report/offline', body)).body, JSON.stringify(body)).toMatchObject({
        resultCode: 701,
        field,
      });
    }
  });

  it('GET /api/report/offline/oldest answers the oldest item in the same shape', async () => {
    const res = await h.get('/api/report/offline/oldest');
    expect(ids(res.body)).toEqual([1]);
    expect(res.body.locations).toEqual([]);
  });

  it('POST /api/document/get/offline (deprecated) answers the same data with a Deprecation header', async () => {
    const res = await h.kasa.app.inject({
      method: 'POST',
      url: '/api/document/get/offline',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ sequenceId: 7 }),
    });
    expect(res.headers.deprecation).toMatch(/^@\d+$/);
    expect(res.headers.link).toContain('/api/report/offline');
    expect(ids(res.json())).toEqual([7]);
    expect(res.json()).toMatchObject({ totalItems: 1, moreItems: false });
    const bad = await h.post('/api/document/get/offline', { limit: 'ten' });
    expect(bad.body.resultCode).toBe(701);
  });

  it('a printed report cut short is resumed at the offset it names and prints exactly the rest, paced by windowSize/printDelay', async () => {
    const printer = h.printer;
    const original = printer.print.bind(printer);
    let reportJobs = 0;
    // The virtual printer's own fault: paper runs out before the 9th job of the report
    // (the heading and 7 items are on paper).
    printer.print = (...args: Parameters<typeof original>) => {
      if (args[0].reference === 'offline-report' && ++reportJobs === 9) printer.failNext('PRINTER_NO_PAPER');
      return original(...args);
    };
    const filter = { from: createOf(31), to: createOf(50) };
    const before = printer.history.length;
    const cut = await h.post('/api/report/offline', { printer: {}, offlineDocumentsFilter: filter });
    expect(cut.status).toBe(500);
    expect(cut.body).toMatchObject({ resultCode: 105, printResultCode: 105, offset: 7, printedItems: 7 });
    expect(ids(cut.body)).toEqual(range(31, 50));

    sleeps.length = 0;
    const rest = await h.post('/api/report/offline', {
      printer: { windowSize: 600, printDelay: 5 },
      offlineDocumentsFilter: filter,
      offset: cut.body.offset,
    });
    expect(rest.body.resultCode).toBe(0);
    printer.print = original;

    const printedItems = printer.history
      .slice(before)
      .filter((j) => j.reference === 'offline-report')
      .flatMap((j) => [...j.text.matchAll(/^(\d+)\. Doklad (\d{6}\/\d+)/gm)].map((m) => m[2]));
    const expected = range(31, 50).map((n) => `202611/${n}`);
    expect(printedItems).toEqual(expected);
    // windowSize 600 bytes (windows of at most that, ADR 0516), each item job roughly 250: a
    // pause of printDelay every two or three jobs, never between every two.
    expect(sleeps.length).toBeGreaterThan(0);
    expect(sleeps.every((ms) => ms === 5)).toBe(true);
    expect(sleeps.length).toBeLessThan(15);
  });

  it('a printed report pauses at most two minutes in all, however small the windows (ADR 0516)', async () => {
    sleepForReal = false;
    sleeps.length = 0;
    const before = h.printer.history.length;
    try {
      const res = await h.post('/api/report/offline', { printer: { windowSize: 256, printDelay: 10_000 } });
      expect(res.body.resultCode).toBe(0);
    } finally {
      sleepForReal = true;
    }
    // 250 items of ~200 bytes in 256-byte windows would be ~200 pauses of 10 s: widened to 12.
    expect(sleeps.length).toBeGreaterThan(0);
    expect(sleeps.every((ms) => ms === 10_000)).toBe(true);
    expect(sleeps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(120_000);
    // The report is paced as one job: its item jobs carry no pacing of their own to add up.
    const jobs = h.printer.history.slice(before).filter((j) => j.reference === 'offline-report');
    expect(jobs.length).toBe(252);
    expect(jobs.every((j) => j.options === undefined)).toBe(true);
  }, 120_000);

  it('a printed report never holds the register: a sale while it prints gets 0, not 300; a second printed report meanwhile gets 300', async () => {
    const printer = h.printer;
    const original = printer.print.bind(printer);
    // The report's second job (its first item) takes as long as the test wants: a slow printer, or
    // a long pause between windows.
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    let reportJobs = 0;
    let held = false;
    printer.print = async (...args: Parameters<typeof original>) => {
      if (args[0].reference === 'offline-report' && ++reportJobs === 2) {
        held = true;
        await gate;
      }
      return original(...args);
    };
    try {
      const before = printer.history.length;
      const printing = h.post('/api/report/offline', { printer: {}, limit: 5 });
      const deadline = Date.now() + 60_000;
      while (!held && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(held).toBe(true);

      const sale = await h.post('/api/document/store', pd());
      expect(sale.body.resultCode).toBe(0);
      expect(printer.history.slice(before).map((j) => j.kind)).toContain('receipt');
      const second = await h.post('/api/report/offline', { printer: {}, limit: 1 });
      expect(second.body.resultCode).toBe(300);

      open();
      const done = await printing;
      expect(done.body.resultCode).toBe(0);
      expect(ids(done.body)).toEqual(range(1, 5));
      const reportText = printer.history
        .slice(before)
        .filter((j) => j.reference === 'offline-report')
        .map((j) => j.text)
        .join('');
      expect([...reportText.matchAll(/^(\d+)\. Doklad/gm)].map((m) => Number(m[1]))).toEqual(range(1, 5));
    } finally {
      open();
      printer.print = original;
    }
  }, 120_000);
});
