import { afterEach, describe, expect, it } from 'vitest';
import { formatQrDateTime, parseApiDateTime } from '../../src/core/time.js';
import { type Harness, pd, startHarness } from '../support/kasa-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  h?.sim.assertNoPendingFaults();
  await h?.close();
  h = undefined;
});

describe('offline documents and SFS failures', () => {
  it('issues the document offline when the SFS refuses connections, with the exact offline QR', async () => {
    h = await startHarness();
    await h.sim.goOffline();
    const res = await h.post('/api/document/store', pd({ electronicReceipt: true }));
    expect(res.body.resultCode).toBe(0);
    const d = res.body.document;
    expect(d.uuid).toBeUndefined();
    expect(d.processDate).toBeUndefined();
    const qrDate = formatQrDateTime(parseApiDateTime(d.createDate)!);
    expect(d.qrCode).toBe(`${d.okp}:${d.cashRegisterCode}:${qrDate}:${d.sequenceId}:7.45`);
    // offline: always printed, never electronic
    expect(d.electronic).toBe(false);
    expect(d.electronicReceipt).toBeUndefined();
    const job = h.printer.history.at(-1)!;
    expect(job.text).toContain('OFF-LINE');
    expect(job.text).toContain(d.pkp.slice(0, 20));
    const indexed = h.kasa.parts.index.findDocument({ by: 'last' })!;
    expect(indexed).toMatchObject({ sendState: 'unsent', printState: 'printed', sendingCount: 1 });
    expect(h.kasa.parts.index.unsentDocuments().map((x) => x.document.documentNo)).toEqual([1]);
    const status = await h.get('/api/status/get');
    const backlog = status.body.components.find(
      (c: { component: string }) => c.component === 'OFFLINE_BACKLOG',
    );
    // Capability 10: OK while more than 24 h are left to the resend deadline, with the oldest item's age.
    expect(backlog).toMatchObject({
      state: 'OK',
      details: { unsentDocuments: 1, oldest: { kind: 'document', documentNumber: d.documentNumber } },
    });
    expect(backlog.details.oldest.timeLeftSeconds).toBeGreaterThan(95 * 3600);
  });

  it('goes offline within the online limit plus a small margin when the SFS never answers', async () => {
    h = await startHarness({ sfsTimeoutMs: 400 });
    h.sim.injectFault({ kind: 'timeout' });
    const started = Date.now();
    const res = await h.post('/api/document/store', pd());
    const elapsed = Date.now() - started;
    expect(res.body.resultCode).toBe(0);
    expect(res.body.document.uuid).toBeUndefined();
    expect(res.body.document.qrCode.split(':')).toHaveLength(5);
    // the limit, plus signing, CHDÚ writes and printing
    expect(elapsed).toBeGreaterThanOrEqual(400);
    expect(elapsed).toBeLessThan(400 + 1500);
  });

  it('keeps a document the SFS rejects as stuck: 501 with the SFS code, not printed, further writes refused', async () => {
    h = await startHarness();
    h.sim.injectFault({ kind: 'soap-fault', code: -100, text: 'Chybný podpisový kód PKP' });
    const res = await h.post('/api/document/store', pd());
    expect(res.status).toBe(500);
    expect(res.body.resultCode).toBe(501);
    expect(res.body.ekasaError).toMatchObject({ errorType: 'EKASA', errorCode: -100 });
    expect(res.body.error).toContain('-100');
    expect(h.printer.history).toHaveLength(0);
    expect(h.kasa.parts.index.findDocument({ by: 'last' })).toMatchObject({ sendState: 'stuck' });
    const next = await h.post('/api/document/store', pd());
    expect(next.body.resultCode).toBe(501);
    expect((await h.post('/api/cash', { amount: 10 })).body.resultCode).toBe(501);
    // reads are not blocked: the lookup answers the document's SFS error, never 0 as if valid
    // (ADR 0119 amendment); its data are in the offline report
    const found = await h.post('/api/document/get', {});
    expect(found.body).toMatchObject({ resultCode: 501, ekasaError: { errorCode: -100 } });
    expect(found.body.document).toBeUndefined();
    const report = (await h.post('/api/report/offline', {})).body;
    expect(report.documents).toHaveLength(1);
    expect(report.documents[0].status.error).toMatchObject({ errorCode: -100 });
  });

  it('answers 602 and keeps the document stuck when the SFS answer is signed by an untrusted certificate', async () => {
    h = await startHarness();
    h.sim.injectFault({ kind: 'untrusted-signature' });
    const res = await h.post('/api/document/store', pd());
    expect(res.body.resultCode).toBe(602);
    expect(h.printer.history).toHaveLength(0);
    expect(h.kasa.parts.index.findDocument({ by: 'last' })?.sendState).toBe('stuck');
  });

  it('treats an unreadable SFS answer as no answer: issued offline', async () => {
    h = await startHarness();
    h.sim.injectFault({ kind: 'garbage' });
    const res = await h.post('/api/document/store', pd());
    expect(res.body.resultCode).toBe(0);
    expect(res.body.document.uuid).toBeUndefined();
  });

  it('answers an offline cash document with a warning status (sending forced, ADR 0704)', async () => {
    h = await startHarness();
    await h.kasa.parts.journal.append({
      type: 'settings',
      body: { changes: { forceSendCashDocuments: true } },
    });
    await h.sim.goOffline();
    const res = await h.post('/api/cash', { amount: -20 });
    expect(res.body.resultCode).toBe(0);
    expect(res.body.cash.uuid).toBeUndefined();
    expect(res.body.cash.status.warning).toMatchObject({ warningType: 'OFFLINE' });
  });

  it('writes to the CHDÚ before anything else: a full CHDÚ (202) means nothing sent and nothing printed', async () => {
    h = await startHarness({ capacityBlocks: 80 });
    let res = await h.post('/api/document/store', pd());
    let stored = 0;
    while (res.body.resultCode === 0 && stored < 40) {
      stored += 1;
      res = await h.post('/api/document/store', pd());
    }
    expect(res.body.resultCode).toBe(202);
    // Every request the SFS saw is of a document already in the CHDÚ, and the refused one was
    // never printed.
    const inChdu = h.kasa.parts.index.lastDocumentNo();
    expect(h.sim.history()).toHaveLength(inChdu);
    expect(h.printer.history.filter((j) => j.kind === 'receipt')).toHaveLength(stored);
  });
});
