import { afterEach, describe, expect, it } from 'vitest';
import { FakeScheduler } from '../../../test/support/fake-scheduler.js';
import { documentRecord, locationRecord, merchantRecord } from '../../../test/support/journal-fixtures.js';
import { merchantRegister } from '../../../test/support/merchant-register.js';
import { FiscalError } from '../fiscal-error.js';
import type { MessageSigner, SfsOutcome, TaxAuthority } from '../ports/tax-authority.js';
import { SfsHealth } from '../services/sfs-health.js';
import type { SfsLocationRequest, SfsReceiptRequest } from '../sfs/message.js';
import { OfflineSender } from './offline-sender.js';
import { SendClaims } from './send-claims.js';

const signer: MessageSigner = { certificateDer: new Uint8Array([1]), sign: () => new Uint8Array(256) };
const accepted = (n: number): SfsOutcome => ({
  kind: 'accepted',
  id: `O-${String(n).padStart(32, '0')}`,
  processDate: '2026-03-02T10:20:00+01:00',
  requestUuid: 'x',
  responseUuid: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
});
const unreachable: SfsOutcome = { kind: 'unreachable', reason: 'refused', timedOut: false, elapsedMs: 1 };
const rejected: SfsOutcome = { kind: 'rejected', code: -104, text: 'CreateDate later than processing time' };

/** A TaxAuthority that answers what the test scripts, one request at a time, never synchronously. */
class ScriptedSfs implements TaxAuthority {
  readonly target = 'scripted';
  readonly requests: Array<SfsReceiptRequest | SfsLocationRequest> = [];
  script: Array<SfsOutcome | Promise<SfsOutcome>> = [];
  inFlight = 0;
  maxInFlight = 0;
  #n = 0;
  async registerReceipt(request: SfsReceiptRequest): Promise<SfsOutcome> {
    return this.#answer(request);
  }
  async registerLocation(request: SfsLocationRequest): Promise<SfsOutcome> {
    return this.#answer(request);
  }
  async close(): Promise<void> {}
  async #answer(request: SfsReceiptRequest | SfsLocationRequest): Promise<SfsOutcome> {
    this.requests.push(request);
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      await new Promise((r) => setImmediate(r));
      return await (this.script.shift() ?? accepted(++this.#n));
    } finally {
      this.inFlight -= 1;
    }
  }
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

async function setup(
  options: { documents?: number; locations?: number; settings?: Record<string, unknown> } = {},
) {
  const reg = await merchantRegister();
  closers.push(() => reg.close());
  const { journal, index, lock } = reg;
  await journal.append({ type: 'merchant', body: merchantRecord() });
  await journal.append({
    type: 'settings',
    body: { changes: { resendIntervalMs: 1000, resendMaxIntervalMs: 5000, ...options.settings } },
  });
  for (let n = 1; n <= (options.documents ?? 0); n++) {
    await journal.append({ type: 'document', body: documentRecord(n) });
    await journal.append({
      type: 'sfs-exchange',
      body: {
        subject: { kind: 'document', documentNo: n },
        requestUuid: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
        requestDate: '2026-03-02T10:15:30+01:00',
        sendingCount: 1,
        outcome: 'unreachable',
        errorText: 'refused',
      },
    });
  }
  for (let n = 1; n <= (options.locations ?? 0); n++)
    await journal.append({ type: 'location', body: locationRecord(n) });
  const sfs = new ScriptedSfs();
  const scheduler = new FakeScheduler();
  const claims = new SendClaims();
  let uuid = 0;
  const sender = new OfflineSender({
    journal,
    index,
    lock,
    claims,
    signers: { forMerchantRecord: async () => signer },
    scheduler,
    readiness: { refusal: () => undefined },
    sfs,
    sfsTimeoutMs: 1000,
    swId: () => '8639BA17A8EEEF50FF559B90D36AE13B5E93DCDE',
    sfsHealth: new SfsHealth('scripted'),
    clock: { now: () => new Date('2026-03-02T10:20:00+01:00') },
    ids: { uuid: () => `11111111-1111-4111-8111-${String(++uuid).padStart(12, '0')}` },
  });
  closers.push(() => sender.stop());
  return { reg, journal, index, lock, sfs, scheduler, claims, sender };
}

/** Waits until the sender's work (CHDÚ writes are real I/O) reaches the state the test expects. */
const settle = async (until: () => boolean) => {
  const deadline = Date.now() + 30_000;
  while (!until()) {
    if (Date.now() > deadline) throw new Error('the sender did not settle');
    await new Promise((r) => setTimeout(r, 1));
  }
};

describe('OfflineSender', () => {
  it('sends the queue at start-up, oldest first, one request in flight, SendingCount + 1 and a new Uuid each time', async () => {
    const t = await setup({ documents: 4, locations: 1 });
    t.sender.start();
    expect(t.scheduler.pending()).toEqual([0]);
    t.scheduler.advance(0);
    await settle(() => t.index.queueSummary().unsentDocuments === 0 && !t.sender.state.running);
    expect(t.sfs.maxInFlight).toBe(1);
    // documents 1–4 were written before the location: creation order.
    const sent = t.sfs.requests.map((r) => ('pkp' in r ? `d${r.data.ReceiptNumber}` : 'l'));
    expect(sent).toEqual(['d1', 'd2', 'd3', 'd4', 'l']);
    expect(t.sfs.requests.every((r) => r.header.SendingCount === '2')).toBe(true);
    expect(new Set(t.sfs.requests.map((r) => r.header.Uuid)).size).toBe(5);
    const doc = t.index.findDocument({ by: 'documentNo', documentNo: 1 })!;
    expect(doc).toMatchObject({ sendState: 'offline-sent', sendingCount: 2 });
    expect(t.index.findLocation(1)).toMatchObject({ sendState: 'offline-sent', sendingCount: 2 });
    expect(t.scheduler.pending()).toEqual([]);
  });

  it('after a failed try it waits the interval, doubling up to the maximum; a request that gets through wakes it at once', async () => {
    const t = await setup({ documents: 2 });
    t.sfs.script = [unreachable, unreachable, unreachable, unreachable];
    t.sender.start();
    const delays: number[] = [];
    for (let i = 0; i < 4; i++) {
      t.scheduler.advance(delays.at(-1) ?? 0);
      await settle(() => t.scheduler.pending().length === 1 && !t.sender.state.running);
      delays.push(t.scheduler.pending()[0]!);
    }
    expect(delays).toEqual([1000, 2000, 4000, 5000]);
    // One attempt per try: an unreachable SFS ends the batch.
    expect(t.sfs.requests).toHaveLength(4);
    // A POS request was accepted: the SFS is back.
    t.sender.notify('accepted', 'request');
    expect(t.scheduler.pending()).toEqual([0]);
    t.scheduler.advance(0);
    await settle(() => t.index.queueSummary().unsentDocuments === 0 && !t.sender.state.running);
    expect(t.sender.state.failures).toBe(0);
    // Its own outcomes never wake it.
    t.sender.notify('accepted', 'background');
    expect(t.scheduler.pending()).toEqual([]);
  });

  it('a rejection makes that item stuck; the rest of the batch is still sent', async () => {
    const t = await setup({ documents: 3 });
    t.sfs.script = [accepted(1), rejected];
    t.sender.start();
    t.scheduler.advance(0);
    await settle(() => t.index.queueSummary().unsentDocuments === 0 && !t.sender.state.running);
    const states = [1, 2, 3].map((n) => t.index.findDocument({ by: 'documentNo', documentNo: n })!.sendState);
    expect(states).toEqual(['offline-sent', 'stuck', 'offline-sent']);
    expect(t.index.findDocument({ by: 'documentNo', documentNo: 2 })!.lastExchange).toMatchObject({
      errorCode: -104,
      sendingCount: 2,
    });
  });

  it('never sends what a request has claimed (its own first attempt or a repair)', async () => {
    const t = await setup({ documents: 2 });
    const release = t.claims.claim({ kind: 'document', documentNo: 1 })!;
    const sent = await t.sender.sendNow();
    expect(sent.documents.map((d) => d.document.documentNo)).toEqual([2]);
    expect(t.index.findDocument({ by: 'documentNo', documentNo: 1 })!.sendState).toBe('unsent');
    release();
    expect((await t.sender.sendNow()).documents.map((d) => d.document.documentNo)).toEqual([1]);
  });

  it('waits on the SFS outside the write lock: a client request meanwhile is not refused (ADR 0701)', async () => {
    const t = await setup({ documents: 1 });
    let answer!: (o: SfsOutcome) => void;
    t.sfs.script = [new Promise<SfsOutcome>((r) => (answer = r))];
    const sending = t.sender.sendNow();
    await settle(() => t.sfs.inFlight === 1);
    expect(t.lock.holder).toBeUndefined();
    await expect(t.lock.run('document/store', async () => 'stored')).resolves.toBe('stored');
    answer(accepted(1));
    expect((await sending).documents).toHaveLength(1);
  });

  it('goes on sending while a client request holds the lock; the waiting records are written together (issue 13)', async () => {
    const t = await setup({ documents: 5 });
    let finish!: () => void;
    const store = t.lock.run('document/store', () => new Promise<void>((r) => (finish = r)));
    const sending = t.sender.sendNow();
    // Every item reaches the SFS while the request holds the lock; none is written yet.
    await settle(() => t.sfs.requests.length === 5);
    expect(t.sfs.maxInFlight).toBe(1);
    expect(t.index.highWaterMark()).toBe(12);
    const appends: string[] = [];
    const append = t.journal.append.bind(t.journal);
    t.journal.append = async (record, options) => {
      appends.push(t.lock.holder ?? 'none');
      return append(record, options);
    };
    finish();
    await store;
    const sent = await sending;
    expect(sent.documents.map((d) => [d.document.documentNo, d.sendState])).toEqual([
      [1, 'offline-sent'],
      [2, 'offline-sent'],
      [3, 'offline-sent'],
      [4, 'offline-sent'],
      [5, 'offline-sent'],
    ]);
    expect(appends).toEqual(Array(5).fill('offline/resend'));
    expect(t.index.highWaterMark()).toBe(17);
  });

  it('sendNow(limit) sends exactly that many; the batch limit setting bounds the background batches', async () => {
    const t = await setup({ documents: 5, settings: { resendBatchLimit: 2 } });
    const first = await t.sender.sendNow(3);
    expect(first.documents.map((d) => d.document.documentNo)).toEqual([1, 2, 3]);
    const second = await t.sender.sendNow();
    expect(second.documents.map((d) => d.document.documentNo)).toEqual([4, 5]);
    expect((await t.sender.sendNow()).documents).toEqual([]);
  });

  it('does not send while the register refuses fiscal work, and retries later', async () => {
    const t = await setup({ documents: 1 });
    let refusal: FiscalError | undefined = new FiscalError('CHDU_WRITE_ERROR', 'consistency check failed');
    const sender = new OfflineSender({
      journal: t.journal,
      index: t.index,
      lock: t.lock,
      claims: t.claims,
      signers: { forMerchantRecord: async () => signer },
      scheduler: t.scheduler,
      readiness: { refusal: () => refusal },
      sfs: t.sfs,
      sfsTimeoutMs: 1000,
      swId: () => '8639BA17A8EEEF50FF559B90D36AE13B5E93DCDE',
      sfsHealth: new SfsHealth('scripted'),
      clock: { now: () => new Date('2026-03-02T10:20:00+01:00') },
      ids: { uuid: () => '22222222-2222-4222-8222-222222222222' },
    });
    closers.push(() => sender.stop());
    sender.start();
    t.scheduler.advance(0);
    await settle(() => t.scheduler.pending().length === 1);
    expect(t.sfs.requests).toHaveLength(0);
    refusal = undefined;
    t.scheduler.advance(t.scheduler.pending()[0]!);
    await settle(() => t.index.queueSummary().unsentDocuments === 0 && !sender.state.running);
    expect(t.sfs.requests).toHaveLength(1);
  });

  it('stop() waits for the attempt in flight, records it, and nothing runs after', async () => {
    const t = await setup({ documents: 2 });
    let answer!: (o: SfsOutcome) => void;
    t.sfs.script = [new Promise<SfsOutcome>((r) => (answer = r))];
    t.sender.start();
    t.scheduler.advance(0);
    await settle(() => t.sfs.inFlight === 1);
    const stopped = t.sender.stop();
    answer(accepted(1));
    await stopped;
    expect(t.index.findDocument({ by: 'documentNo', documentNo: 1 })!.sendState).toBe('offline-sent');
    expect(t.index.findDocument({ by: 'documentNo', documentNo: 2 })!.sendState).toBe('unsent');
    t.sender.notify('accepted', 'request');
    expect(t.scheduler.pending()).toEqual([]);
    expect(t.sfs.requests).toHaveLength(1);
  });
});
