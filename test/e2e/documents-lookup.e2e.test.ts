import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, pd, startHarness } from '../support/kasa-harness.js';
import { ManualClock } from '../support/merchant-register.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('document lookup', () => {
  it('finds a document by every key, the last one with {}, and answers 506 with HTTP 200 when not found', async () => {
    h = await startHarness({ clock: new ManualClock(new Date('2026-03-02T09:15:30Z')) });
    const a = (await h.post('/api/document/store', pd({ externalId: 'EXT-A' }))).body.document;
    const b = (await h.post('/api/cash', { amount: 5 })).body.cash;

    const byKey = async (query: Record<string, unknown>) => (await h!.post('/api/document/get', query)).body;
    for (const query of [
      { documentBySequenceId: { sequenceId: 1, month: 3, year: 2026 } },
      { documentByExternalId: { externalId: 'EXT-A' } },
      { documentByOkp: { okp: a.okp } },
      { documentByOkp: { okp: a.okp.toUpperCase() } },
      { documentByPkp: { pkp: a.pkp } },
      { documentByUUID: { uuid: a.uuid } },
      { documentByUUID: { uuid: a.uuid.toLowerCase() } },
    ]) {
      const found = await byKey(query);
      expect(found.resultCode, JSON.stringify(query)).toBe(0);
      expect(found.document.internalDocumentId).toBe(a.internalDocumentId);
    }
    // ADR 0008 §4: the last document of any type, cash included
    expect((await byKey({})).document).toMatchObject({ type: 'VK', sequenceId: b.sequenceId });

    // ADR 0010: the 506 sentence names the member and the value looked for.
    for (const [query, named] of [
      [{ documentBySequenceId: { sequenceId: 1, month: 4, year: 2026 } }, 'sequenceId 1 in 04/2026'],
      [{ documentByExternalId: { externalId: 'nope' } }, 'externalId "nope" (documentByExternalId)'],
      [
        { documentByOkp: { okp: '00000000-00000000-00000000-00000000-00000000' } },
        'okp "00000000-00000000-00000000-00000000-00000000" (documentByOkp)',
      ],
      [{ documentByUUID: { uuid: 'O-00000000000000000000000000000000' } }, 'uuid "O-0000'],
      [{ documentByPkp: { pkp: 'x'.repeat(400) } }, `pkp "${'x'.repeat(64)}…" (400 characters)`],
      [{ documentByExternalId: { externalId: 'a\nb\u202ec' } }, 'externalId "a\uFFFDb\uFFFDc"'],
    ] as const) {
      const res = await h.post('/api/document/get', query);
      expect(res.status, JSON.stringify(query)).toBe(200);
      expect(res.body.resultCode).toBe(506);
      expect(res.body.error).toContain(named);
    }
    expect(
      (await byKey({ documentByExternalId: { externalId: 'EXT-A' }, documentByUUID: { uuid: a.uuid } }))
        .resultCode,
    ).toBe(701);
  });

  it('answers 506 for the last document of an empty register', async () => {
    h = await startHarness();
    const res = await h.post('/api/document/get', {});
    expect(res.status).toBe(200);
    expect(res.body.resultCode).toBe(506);
    expect(res.body.error).toContain('no document has been stored');
  });
});

describe('numbering', () => {
  it('restarts sequenceId at 1 at the Bratislava month boundary, whatever the host zone', async () => {
    // 2026-01-31 23:59:58 CET = 22:59:58 UTC
    const clock = new ManualClock(new Date('2026-01-31T22:59:58Z'));
    h = await startHarness({ clock });
    const jan1 = (await h.post('/api/document/store', pd())).body.document;
    const jan2 = (await h.post('/api/cash', { amount: 1 })).body.cash;
    expect([jan1.sequenceId, jan2.sequenceId]).toEqual([1, 2]);
    expect(jan1.documentNumber).toBe('202601/1');
    clock.current = new Date('2026-01-31T23:00:01Z'); // 00:00:01 on 1 Feb in Bratislava
    const feb = (await h.post('/api/document/store', pd())).body.document;
    expect(feb).toMatchObject({
      sequenceId: 1,
      documentNumber: '202602/1',
      createDate: '01.02.2026 00:00:01',
    });
    expect(feb.internalDocumentId).toBe(3);
  });

  it('continues the monthly sequence across a restart, without repeating or skipping', async () => {
    const clock = new ManualClock(new Date('2026-06-10T10:00:00Z'));
    h = await startHarness({ clock });
    await h.post('/api/document/store', pd());
    await h.post('/api/document/store', pd());
    const dataDir = h.dataDir;
    await h.close();
    h = await startHarness({ clock, dataDir });
    const third = (await h.post('/api/document/store', pd())).body.document;
    expect(third).toMatchObject({ sequenceId: 3, documentNumber: '202606/3', internalDocumentId: 3 });
  });
});

describe('exactly once (Idempotency-Key)', () => {
  it('returns the stored document for a retry, also after a restart; nothing written, sent or printed twice', async () => {
    h = await startHarness();
    const key = { 'idempotency-key': 'pos-7-sale-42' };
    const first = await h.post('/api/document/store', pd(), key);
    expect(first.body.resultCode).toBe(0);
    const again = await h.post('/api/document/store', pd(), key);
    expect(again.body).toEqual(first.body);

    const dataDir = h.dataDir;
    const clock = h.clock;
    await h.close();
    h = await startHarness({ dataDir, clock });
    const afterRestart = await h.post('/api/document/store', pd(), key);
    expect(afterRestart.body).toEqual(first.body);
    expect(h.kasa.parts.index.lastDocumentNo()).toBe(1);
    expect(h.sim.history()).toHaveLength(0); // the new simulator instance got nothing
    expect(h.printer.history).toHaveLength(0);

    const other = await h.post('/api/document/store', pd({ amount: 7.45, externalId: 'different' }), key);
    expect(other.body.resultCode).toBe(701);
    expect(other.body.error).toContain('Idempotency-Key');
    expect(h.kasa.parts.index.lastDocumentNo()).toBe(1);
  });

  it('a key reused with another body names the document it made, on store and on cash (ADR 0010)', async () => {
    h = await startHarness();
    const sale = (await h.post('/api/document/store', pd(), { 'idempotency-key': 'k-sale' })).body.document;
    const deposit = (await h.post('/api/cash', { amount: 10 }, { 'idempotency-key': 'k-cash' })).body.cash;
    for (const [url, body, key, made] of [
      ['/api/document/store', pd({ externalId: 'sale-77' }), 'k-sale', sale],
      ['/api/cash', { amount: 11 }, 'k-cash', deposit],
      // The same key on the other endpoint is another request too.
      ['/api/cash', { amount: 10 }, 'k-sale', sale],
    ] as const) {
      const res = await h.post(url, body, { 'idempotency-key': key });
      expect(res.status, `${url} ${key}`).toBe(500);
      expect(res.body).toMatchObject({
        resultCode: 701,
        // ADR 0008 §7's text word for word; the document is in the members.
        error: 'Idempotency-Key already used for a different request',
        field: 'Idempotency-Key',
        documentNumber: made.documentNumber,
        internalDocumentId: made.internalDocumentId,
      });
      // The document it names is the one the POS gets back by looking it up.
      const [month, seq] = [made.documentNumber.slice(0, 6), made.sequenceId];
      const found = await h.post('/api/document/get', {
        documentBySequenceId: {
          sequenceId: seq,
          month: Number(month.slice(4)),
          year: Number(month.slice(0, 4)),
        },
      });
      expect(found.body.document.internalDocumentId).toBe(res.body.internalDocumentId);
    }
    expect(h.kasa.parts.index.lastDocumentNo()).toBe(2);
  });

  it('replays a 507 for a retry of a document whose print failed, without printing it again', async () => {
    h = await startHarness();
    h.printer.failNext('PRINTER_NO_PAPER');
    const key = { 'idempotency-key': 'k-507' };
    const first = await h.post('/api/document/store', pd(), key);
    expect(first.body.resultCode).toBe(507);
    const retry = await h.post('/api/document/store', pd(), key);
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ resultCode: 507, printResultCode: 105 });
    expect(h.printer.failures).toHaveLength(1);
  });

  it('refuses a key longer than 100 characters', async () => {
    h = await startHarness();
    const res = await h.post('/api/document/store', pd(), { 'idempotency-key': 'x'.repeat(101) });
    expect(res.body.resultCode).toBe(701);
    expect(h.kasa.parts.index.lastDocumentNo()).toBe(0);
  });
});
