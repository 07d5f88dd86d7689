import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatSfsDateTime } from '../../src/core/time.js';
import { type Harness, pd, startHarness } from '../support/kasa-harness.js';

/**
 * ADR 0431: a paragón is entered once. The same number on the same day is the same paper receipt;
 * entered again it would be registered and counted twice.
 */
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const hoursAgo = (h: Harness, hours: number) =>
  formatSfsDateTime(new Date(h.clock.now().getTime() - hours * 3600_000));

/** `dd.MM.yyyy HH:mm:ss` (Bratislava time) on the day two days ago: two times of one shop day. */
const twoDaysAgoAt = (h: Harness, time: string) => {
  const day = hoursAgo(h, 48).slice(0, 10);
  return `${day.slice(8, 10)}.${day.slice(5, 7)}.${day.slice(0, 4)} ${time}`;
};

describe('a paragón entered once', () => {
  it('the same number and day again is 701 naming paragonNumber and the document it is; nothing written', async () => {
    h = await startHarness();
    const paragonDate = twoDaysAgoAt(h, '10:00:00');
    const first = await h.post('/api/document/store', pd({ paragonNumber: 17, paragonDate }));
    expect(first.body.resultCode).toBe(0);
    const head = h.kasa.parts.journal.head()?.recordNo;
    const again = await h.post('/api/document/store', pd({ paragonNumber: 17, paragonDate }));
    expect(again.body.resultCode).toBe(701);
    expect(again.body.field).toBe('paragonNumber');
    expect(again.body.error).toContain(`already entered as document ${first.body.document.documentNumber}`);
    expect(h.kasa.parts.journal.head()?.recordNo).toBe(head);
    expect(h.sim.history().length).toBe(1);
    // Another time of the same day is the same paper too.
    const sameDay = await h.post(
      '/api/document/store',
      pd({ paragonNumber: 17, paragonDate: twoDaysAgoAt(h, '18:30:00') }),
    );
    expect(sameDay.body.resultCode).toBe(701);
  });

  it('a paragón set aside (never registered) may be entered again', async () => {
    h = await startHarness();
    const paragonDate = twoDaysAgoAt(h, '10:00:00');
    h.sim.injectFault({ kind: 'soap-fault', code: -2, text: 'Chyba schémy.' });
    expect(
      (await h.post('/api/document/store', pd({ paragonNumber: 17, paragonDate }))).body.resultCode,
    ).toBe(501);
    const stuck = h.kasa.parts.index.findDocument({ by: 'last' })!;
    const aside = await h.post('/api/offline/set-aside', {
      internalDocumentId: stuck.document.documentNo,
      reason: 'wrong VAT typed; entered again',
    });
    expect(aside.body.resultCode).toBe(0);
    expect(
      (await h.post('/api/document/store', pd({ paragonNumber: 17, paragonDate }))).body.resultCode,
    ).toBe(0);
  });

  it('a repair may not move a paragón onto a day where its number is another document', async () => {
    h = await startHarness();
    const first = await h.post(
      '/api/document/store',
      pd({ paragonNumber: 17, paragonDate: twoDaysAgoAt(h, '10:00:00') }),
    );
    expect(first.body.resultCode).toBe(0);
    h.sim.injectFault({ kind: 'soap-fault', code: -2, text: 'Chyba schémy.' });
    const wrongDay = formatSfsDateTime(new Date(h.clock.now().getTime() - 3 * 3600_000));
    expect(
      (await h.post('/api/document/store', pd({ paragonNumber: 17, paragonDate: wrongDay }))).body.resultCode,
    ).toBe(501);
    const repair = await h.post('/api/document/update', {
      fixDocument: { issueDate: twoDaysAgoAt(h, '11:00:00') },
    });
    expect(repair.body.resultCode).toBe(701);
    expect(repair.body.field).toBe('fixDocument.issueDate');
    expect(repair.body.error).toContain(`already document ${first.body.document.documentNumber}`);
  });

  it('another number, or the same number on another day, is another paragón', async () => {
    h = await startHarness();
    expect(
      (await h.post('/api/document/store', pd({ paragonNumber: 17, paragonDate: hoursAgo(h, 3) }))).body
        .resultCode,
    ).toBe(0);
    expect(
      (await h.post('/api/document/store', pd({ paragonNumber: 18, paragonDate: hoursAgo(h, 3) }))).body
        .resultCode,
    ).toBe(0);
    expect(
      (await h.post('/api/document/store', pd({ paragonNumber: 17, paragonDate: hoursAgo(h, 50) }))).body
        .resultCode,
    ).toBe(0);
  });

  it('a retry with the same Idempotency-Key still gets the first answer', async () => {
    h = await startHarness();
    const body = pd({ paragonNumber: 9, paragonDate: hoursAgo(h, 3) });
    const key = { 'idempotency-key': 'paragon-9-retry' };
    const first = await h.post('/api/document/store', body, key);
    expect(first.body.resultCode).toBe(0);
    const retry = await h.post('/api/document/store', body, key);
    expect(retry.body.resultCode).toBe(0);
    expect(retry.body.document.documentNumber).toBe(first.body.document.documentNumber);
  });

  it('still refused after the index is rebuilt from the CHDÚ', async () => {
    h = await startHarness();
    const paragonDate = hoursAgo(h, 3);
    expect((await h.post('/api/document/store', pd({ paragonNumber: 5, paragonDate }))).body.resultCode).toBe(
      0,
    );
    const dataDir = h.dataDir;
    await h.close();
    h = undefined;
    for (const f of ['index.sqlite', 'index.sqlite-wal', 'index.sqlite-shm'])
      rmSync(join(dataDir, f), { force: true });
    h = await startHarness({ dataDir });
    const again = await h.post('/api/document/store', pd({ paragonNumber: 5, paragonDate }));
    expect(again.body.resultCode).toBe(701);
    expect(again.body.field).toBe('paragonNumber');
  });
});
