import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { SqliteJournalIndex } from '../../../src/adapters/index/sqlite-journal-index.js';
import { fullDisk } from '../../support/full-disk.js';
import { type Harness, type Json, pd, startHarness } from '../../support/kasa-harness.js';
import { waitFor } from '../../support/wait-for.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const sqlite = (harness: Harness) => (harness.kasa.parts.index as SqliteJournalIndex).database;
const statusOf = async (harness: Harness) => (await harness.get('/api/status/get')).body;
const chduEntry = (status: Json): Json =>
  status.components.find((c: { component: string }) => c.component === 'CHDU');

/**
 * ADR 0116. The index's disk runs full the way SQLite meets it: `max_page_count` at the current
 * size makes the next page SQLite needs fail with a real SQLITE_FULL (what SQLite also reports for
 * ENOSPC); raising it is the space coming back.
 */
describe('disk full under the index (SQLITE_FULL)', () => {
  it('the POS gets the document the CHDÚ took; then 202 naming the index, look-ups still answer, and it recovers without a restart', async () => {
    h = await startHarness();
    const first = await h.post('/api/document/store', pd({ externalId: 'before-full' }));
    expect(first.body.resultCode).toBe(0);
    const db = sqlite(h);
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);

    // Sales go on until one lands in the CHDÚ but not in the index: that POS still gets its document.
    const answers: Array<{
      status: number;
      body: { resultCode: number; document?: { documentNumber: string } };
    }> = [];
    let lagging = false;
    for (let i = 0; i < 40 && !lagging; i++) {
      const res = await h.post('/api/document/store', pd({ externalId: `full-${i}` }));
      answers.push(res);
      lagging = h.kasa.parts.index.highWaterMark() < (h.kasa.parts.journal.head()?.recordNo ?? 0);
    }
    expect(lagging).toBe(true);
    const hit = answers.at(-1)!;
    expect(hit.status).toBe(200);
    expect(hit.body.resultCode).toBe(0);
    const sold = hit.body.document!.documentNumber;
    expect(answers.every((a) => a.body.resultCode === 0)).toBe(true);

    // The next request is refused with the storage code and a sentence naming the index's disk.
    const refused = await h.post('/api/document/store', pd());
    expect(refused.body.resultCode).toBe(202);
    expect(refused.body.error).toContain('index');
    const status = await statusOf(h);
    expect(status).toMatchObject({ state: 'CHDU_WRITE_LIMIT', reasonCode: 202 });
    expect(chduEntry(status)).toMatchObject({ state: 'ERROR', reasonCode: 202 });
    // Look-ups keep working from what the index holds.
    const lookup = await h.post('/api/document/get', { documentByExternalId: { externalId: 'before-full' } });
    expect(lookup.body).toMatchObject({ resultCode: 0, document: { externalId: 'before-full' } });

    // Space comes back: the register catches up by itself, no restart.
    db.pragma('max_page_count = 1073741823');
    await waitFor(async () => {
      await h!.post('/api/document/store', pd({ externalId: 'probe' })).catch(() => undefined);
      return (await statusOf(h!)).state === 'READY';
    }, 15_000);
    const last = await h.post('/api/document/get', {
      documentByExternalId: { externalId: `full-${answers.length - 1}` },
    });
    expect(last.body.document.documentNumber).toBe(sold);
    const numbers = db
      .prepare('SELECT sequence_id FROM documents ORDER BY document_no')
      .pluck()
      .all() as number[];
    expect(numbers).toEqual(numbers.map((_, i) => i + 1)); // no gap, no duplicate
  });
});

/**
 * ADR 0116. The image's disk runs full at the file-system seam (test/support/full-disk.ts): a
 * short write then ENOSPC, statfs with no room — what write(2) and statfs(2) give on a full disk.
 */
describe('disk full under the CHDÚ image (ENOSPC)', () => {
  it('202 with a sentence naming the disk, nothing stored, status names it, look-ups answer; recovers once space is back', async () => {
    const disk = fullDisk();
    h = await startHarness({ imageIo: disk.opener });
    expect((await h.post('/api/document/store', pd({ externalId: 'ok-1' }))).body.resultCode).toBe(0);
    const head = h.kasa.parts.journal.head()!.recordNo;

    disk.full = true;
    const res = await h.post('/api/document/store', pd());
    expect(res.status).toBe(500);
    expect(res.body.resultCode).toBe(202);
    expect(res.body.error).toMatch(/disk holding the CHDÚ image .* is full \(ENOSPC\)/);
    expect(disk.failedWrites).toBeGreaterThan(0);
    expect(h.kasa.parts.journal.head()!.recordNo).toBe(head); // nothing kept, no number used
    await waitFor(async () => (await statusOf(h!)).reasonCode === 202, 10_000);
    expect(chduEntry(await statusOf(h))).toMatchObject({ state: 'ERROR', reasonCode: 202 });
    expect((await h.post('/api/cash', { amount: 5 })).body.resultCode).toBe(202);
    expect((await h.post('/api/document/get', {})).body).toMatchObject({
      resultCode: 0,
      document: { externalId: 'ok-1' },
    });

    disk.full = false;
    await waitFor(async () => {
      await h!.post('/api/document/get', { printer: {} }).catch(() => undefined); // a refused request re-checks
      return (await statusOf(h!)).state === 'READY';
    }, 15_000);
    const next = await h.post('/api/document/store', pd());
    expect(next.body.resultCode).toBe(0);
    expect(next.body.document.sequenceId).toBe(2);
  });

  it('a document in the CHDÚ whose next record cannot be written is answered with its number, never -1', async () => {
    const disk = fullDisk();
    h = await startHarness({ imageIo: disk.opener });
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(0);
    // The disk fills while the SFS answers: the document is in the CHDÚ, its exchange record is not.
    h.sim.setLatency(400, 1);
    const seen = h.sim.history().length;
    const pending = h.post('/api/document/store', pd({ externalId: 'mid-sale' }));
    await waitFor(() => h!.sim.history().length > seen, 10_000);
    disk.full = true;
    const res = await pending;
    expect(res.body).toMatchObject({ resultCode: 202, stored: true, internalDocumentId: 2 });
    expect(res.body.documentNumber).toMatch(/^\d{6}\/2$/);
    expect(res.body.error).toContain('POST /api/document/get');

    disk.full = false;
    // Back: the CHDÚ is fine again; the register now asks for the stored document's original (508).
    await waitFor(async () => {
      await h!.post('/api/document/get', { printer: {} }).catch(() => undefined);
      return chduEntry(await statusOf(h!)).state === 'OK';
    }, 15_000);
    expect((await h.post('/api/cash', { amount: 5 })).body.resultCode).toBe(508);
    const got = await h.post('/api/document/get', {});
    expect(got.body.document).toMatchObject({
      externalId: 'mid-sale',
      documentNumber: res.body.documentNumber,
    });
  });
});

/**
 * ADR 0116, look-ups up to the journal head. The index's disk fills exactly on the document record
 * of a sale (SQLite's own SQLITE_FULL error raised where the index inserts the document), so the
 * CHDÚ holds a document the index does not: a POS that lost its answer and looks up must find it —
 * "not found" would make it sell again.
 */
describe('look-ups while the index lags behind the CHDÚ', () => {
  it('the last document, by externalId and by number answer the document the index missed', async () => {
    h = await startHarness();
    expect((await h.post('/api/document/store', pd({ externalId: 'before-full' }))).body.resultCode).toBe(0);
    const index = h.kasa.parts.index as unknown as { insertDocument: (...args: unknown[]) => void };
    const insertDocument = index.insertDocument.bind(index);
    let full = true;
    index.insertDocument = (...args) => {
      if (full) throw new Database.SqliteError('database or disk is full', 'SQLITE_FULL');
      insertDocument(...args);
    };

    const stored = await h.post('/api/document/store', pd({ externalId: 'lost-answer' }));
    expect(stored.body.resultCode).toBe(0);
    const sold = stored.body.document.documentNumber as string;
    expect(h.kasa.parts.index.highWaterMark()).toBeLessThan(h.kasa.parts.journal.head()!.recordNo);
    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(202);

    const last = await h.post('/api/document/get', {});
    expect(last.body).toMatchObject({
      resultCode: 0,
      document: { documentNumber: sold, externalId: 'lost-answer' },
    });
    const byId = await h.post('/api/document/get', { documentByExternalId: { externalId: 'lost-answer' } });
    expect(byId.body).toMatchObject({ resultCode: 0, document: { documentNumber: sold } });
    const [, yyyy, mm, seq] = /^(\d{4})(\d{2})\/(\d+)$/.exec(sold)!;
    const byNumber = await h.post('/api/document/get', {
      documentBySequenceId: { sequenceId: Number(seq), month: Number(mm), year: Number(yyyy) },
    });
    expect(byNumber.body).toMatchObject({ resultCode: 0, document: { documentNumber: sold } });
    // The answer is the one the store gave (registered online, printed), not a bare record.
    expect(last.body.document).toEqual(stored.body.document);
    // Older documents still answer from the index; an unknown one is still not found.
    const before = await h.post('/api/document/get', { documentByExternalId: { externalId: 'before-full' } });
    expect(before.body).toMatchObject({ resultCode: 0, document: { externalId: 'before-full' } });
    const none = await h.post('/api/document/get', { documentByExternalId: { externalId: 'never-sold' } });
    expect(none.body.resultCode).toBe(506);

    full = false;
    await waitFor(async () => {
      await h!.post('/api/document/get', { printer: {} }).catch(() => undefined); // a refused request re-checks
      return (await statusOf(h!)).state === 'READY';
    }, 15_000);
    const after = await h.post('/api/document/get', { documentByExternalId: { externalId: 'lost-answer' } });
    expect(after.body.document).toEqual(stored.body.document);
  });
});
