import { afterEach, describe, expect, it } from 'vitest';
import { FakeScheduler } from '../../../test/support/fake-scheduler.js';
import { documentRecord, locationRecord, merchantRecord } from '../../../test/support/journal-fixtures.js';
import { merchantRegister } from '../../../test/support/merchant-register.js';
import { FiscalError } from '../fiscal-error.js';
import type { Journal } from '../ports/journal.js';
import type { MessageSigner, SfsOutcome, TaxAuthority } from '../ports/tax-authority.js';
import { SfsHealth } from '../services/sfs-health.js';
import { BACKGROUND_TURNS_PER_NETWORK_WAIT } from '../services/write-lock.js';
import type { SfsLocationRequest, SfsReceiptRequest } from '../sfs/message.js';
import { OfflineSender } from './offline-sender.js';
import { SendClaims } from './send-claims.js';
import { REQUESTS_IN_FLIGHT, SEND_WINDOW } from './send-window.js';

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
  log?: (level: 'info' | 'warn', message: string) => void,
  refusal: () => FiscalError | undefined = () => undefined,
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
    readiness: { refusal },
    ...(log ? { log } : {}),
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
  it('sends the queue at start-up, oldest first, SendingCount + 1 and a new Uuid each time', async () => {
    const t = await setup({ documents: 4, locations: 1 });
    t.sender.start();
    expect(t.scheduler.pending()).toEqual([0]);
    t.scheduler.advance(0);
    await settle(() => t.index.queueSummary().unsentDocuments === 0 && !t.sender.state.running);
    expect(t.sfs.maxInFlight).toBeLessThanOrEqual(REQUESTS_IN_FLIGHT);
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
    const t = await setup({ documents: 1 });
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

  it('sends no request while a client request holds the write lock, even with its start written: the cashier goes first (ADR 1105)', async () => {
    const t = await setup({ documents: 6 });
    // While the sender's second hold writes the probe's outcome and the next window's starts, a
    // POS request arrives: it waits for that hold, then holds the lock itself.
    let finishStore: (() => void) | undefined;
    let storing: Promise<void> | undefined;
    let holds = 0;
    const runBackground = t.lock.runBackground.bind(t.lock);
    t.lock.runBackground = (useCase, work) =>
      runBackground(useCase, () => {
        holds += 1;
        if (holds === 2) {
          storing = t.lock.run(
            'document/store',
            () => new Promise<void>((resolve) => (finishStore = resolve)),
          );
        }
        return work();
      });
    const sending = t.sender.sendNow();
    await settle(() => finishStore !== undefined);
    let starts = 0;
    for await (const r of t.journal.records()) if (r.type === 'sfs-attempt') starts += 1;
    expect(starts).toBe(6);
    await new Promise((r) => setTimeout(r, 200));
    // Only the probe went out: documents 2–6 wait for the store although their starts are written.
    expect(t.sfs.requests).toHaveLength(1);
    finishStore?.();
    await storing;
    const sent = await sending;
    expect(sent.documents.map((d) => d.document.documentNo)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(t.sfs.maxInFlight).toBeLessThanOrEqual(REQUESTS_IN_FLIGHT);
  });

  it('starts its turns of requests while the client holding the lock waits on the network, and writes nothing until it releases (ADR 1107)', async () => {
    const t = await setup({ documents: 6 });
    // As above: a POS request takes the lock while the sender writes the next window's starts.
    let answerSfs: (() => void) | undefined;
    let finishStore: (() => void) | undefined;
    let storing: Promise<void> | undefined;
    let holds = 0;
    const runBackground = t.lock.runBackground.bind(t.lock);
    t.lock.runBackground = (useCase, work) =>
      runBackground(useCase, () => {
        holds += 1;
        if (holds === 2) {
          storing = t.lock.run('document/store', async () => {
            // The store's own SFS exchange: the thread idles meanwhile.
            await t.lock.whileAwaitingNetwork(() => new Promise<void>((r) => (answerSfs = r)));
            await new Promise<void>((resolve) => (finishStore = resolve));
          });
        }
        return work();
      });
    const sending = t.sender.sendNow();
    await settle(
      () => answerSfs !== undefined && t.sfs.requests.length === 1 + BACKGROUND_TURNS_PER_NETWORK_WAIT,
    );
    const recordsNow = async () => {
      let n = 0;
      for await (const _ of t.journal.records()) n += 1;
      return n;
    };
    const written = await recordsNow();
    await new Promise((r) => setTimeout(r, 200));
    // BACKGROUND_TURNS_PER_NETWORK_WAIT requests in the store's network wait, not more, and no
    // record while the store holds the lock.
    expect(t.sfs.requests).toHaveLength(1 + BACKGROUND_TURNS_PER_NETWORK_WAIT);
    expect(t.sfs.inFlight).toBe(0);
    expect(await recordsNow()).toBe(written);
    // The store's answer is in and it computes again: still nothing more leaves.
    answerSfs?.();
    await settle(() => finishStore !== undefined);
    await new Promise((r) => setTimeout(r, 100));
    expect(t.sfs.requests).toHaveLength(1 + BACKGROUND_TURNS_PER_NETWORK_WAIT);
    finishStore?.();
    await storing;
    const sent = await sending;
    expect(sent.documents.map((d) => d.document.documentNo)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(t.sfs.requests.every((r) => r.header.SendingCount === '2')).toBe(true);
  });

  it('an online success with nothing waiting costs one indexed look, not a batch reading the queue (capability 13)', async () => {
    const t = await setup({ documents: 0 });
    let queueReads = 0;
    let looks = 0;
    const sendQueue = t.index.sendQueue.bind(t.index);
    const hasUnsent = t.index.hasUnsent.bind(t.index);
    t.index.sendQueue = (limit) => {
      queueReads += 1;
      return sendQueue(limit);
    };
    t.index.hasUnsent = () => {
      looks += 1;
      return hasUnsent();
    };
    t.sender.start();
    t.scheduler.advance(0);
    await settle(() => !t.sender.state.running && looks > 0);
    // Twenty online stores, each as the store path makes it: the document claimed and written, its
    // first attempt accepted (SfsHealth notifies the sender), the outcome written, the claim ended.
    for (let n = 1; n <= 20; n++) {
      const release = t.claims.claim({ kind: 'document', documentNo: n })!;
      await t.journal.append({ type: 'document', body: documentRecord(n) });
      t.sender.notify('accepted', 'request');
      await t.journal.append({
        type: 'sfs-exchange',
        body: {
          subject: { kind: 'document', documentNo: n },
          requestUuid: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
          requestDate: '2026-03-02T10:15:30+01:00',
          sendingCount: 1,
          outcome: 'accepted',
          id: `O-${String(n).padStart(32, '0')}`,
          responseUuid: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
          processDate: '2026-03-02T10:15:31+01:00',
        },
      });
      release();
      t.scheduler.advance(0);
      await settle(() => !t.sender.state.running);
    }
    expect(looks).toBeGreaterThanOrEqual(21);
    expect(queueReads).toBe(0);
    expect(t.sfs.requests).toHaveLength(0);
    // Something waits: the same wake-up reads the queue and sends it.
    await t.journal.append({ type: 'document', body: documentRecord(21) });
    t.sender.notify('accepted', 'request');
    t.scheduler.advance(0);
    await settle(() => t.index.queueSummary().unsentDocuments === 0 && !t.sender.state.running);
    expect(queueReads).toBeGreaterThan(0);
    expect(t.sfs.requests.map((r) => 'pkp' in r && Number(r.data.ReceiptNumber))).toEqual([21]);
  });

  it('an online success while the next document is claimed in flight runs no batch; an unclaimed item beside it is sent at once (capability 13)', async () => {
    const t = await setup({ documents: 0 });
    let queueReads = 0;
    const sendQueue = t.index.sendQueue.bind(t.index);
    t.index.sendQueue = (limit) => {
      queueReads += 1;
      return sendQueue(limit);
    };
    t.sender.start();
    t.scheduler.advance(0);
    await settle(() => !t.sender.state.running);
    const exchange = (n: number) => ({
      type: 'sfs-exchange' as const,
      body: {
        subject: { kind: 'document' as const, documentNo: n },
        requestUuid: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
        requestDate: '2026-03-02T10:15:30+01:00',
        sendingCount: 1,
        outcome: 'accepted' as const,
        id: `O-${String(n).padStart(32, '0')}`,
        responseUuid: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
        processDate: '2026-03-02T10:15:31+01:00',
      },
    });
    // As a POS storing back to back makes it: the SFS's answer wakes the sender while the
    // document it answers (or the next one) is written, unsent and claimed by its request.
    for (let n = 1; n <= 20; n++) {
      const release = t.claims.claim({ kind: 'document', documentNo: n })!;
      await t.journal.append({ type: 'document', body: documentRecord(n) });
      t.sender.notify('accepted', 'request');
      t.scheduler.advance(0);
      await settle(() => !t.sender.state.running);
      await t.journal.append(exchange(n));
      release();
    }
    expect(queueReads).toBe(0);
    expect(t.sfs.requests).toHaveLength(0);
    // An unsent document nobody claims behind a claimed older one (the idle look must read one
    // more number than there are claims): the same wake-up sends it.
    const release = t.claims.claim({ kind: 'document', documentNo: 21 })!;
    await t.journal.append({ type: 'document', body: documentRecord(21) });
    await t.journal.append({ type: 'document', body: documentRecord(22) });
    t.sender.notify('accepted', 'request');
    t.scheduler.advance(0);
    await settle(() => t.sfs.requests.length === 1 && !t.sender.state.running);
    expect(queueReads).toBeGreaterThan(0);
    expect(t.sfs.requests.map((r) => 'pkp' in r && Number(r.data.ReceiptNumber))).toEqual([22]);
    release();
  });

  it("a window's starts are written in one hold and one write before any of its requests leaves; its outcomes go together into a later hold; clients meanwhile are never refused (ADR 1105, 1107)", async () => {
    const documents = SEND_WINDOW + 8;
    const t = await setup({ documents });
    // What the CHDÚ holds when each request reaches the SFS.
    const startsAtRequest: number[] = [];
    const registerReceipt = t.sfs.registerReceipt.bind(t.sfs);
    const left: number[] = [];
    t.sfs.registerReceipt = async (request) => {
      left.push(Number(request.data.ReceiptNumber));
      let starts = 0;
      for await (const r of t.journal.records()) if (r.type === 'sfs-attempt') starts += 1;
      startsAtRequest.push(starts);
      return registerReceipt(request);
    };
    // Which records each hold of the lock wrote, and in how many writes.
    const holds: Array<{ records: string[]; writes: number }> = [];
    const runBackground = t.lock.runBackground.bind(t.lock);
    t.lock.runBackground = (useCase, work) =>
      runBackground(useCase, () => {
        holds.push({ records: [], writes: 0 });
        return work();
      });
    const append = t.journal.append.bind(t.journal);
    t.journal.append = async (record, options) => {
      expect(t.lock.holder).toBe('document/store');
      return append(record, options);
    };
    const appendMany = t.journal.appendMany!.bind(t.journal);
    t.journal.appendMany = async (records) => {
      expect(t.lock.holder).toBe('offline/resend');
      const hold = holds.at(-1)!;
      hold.writes += 1;
      hold.records.push(
        ...records.map(
          (r) =>
            `${r.type === 'sfs-attempt' ? 'start' : 'outcome'} ${'subject' in r.body && 'documentNo' in r.body.subject ? r.body.subject.documentNo : '?'}`,
        ),
      );
      return appendMany(records);
    };
    // The last request of the first full window gets its answer only once the next window's
    // starts are written (ADR 1107: they do not wait for the previous window's last answers).
    const full = 1 + SEND_WINDOW;
    let answerLast: (() => void) | undefined;
    t.sfs.script = [
      ...Array.from({ length: full - 1 }, (_, i) => accepted(i + 1)),
      new Promise<SfsOutcome>((r) => (answerLast = () => r(accepted(full)))),
    ];
    const sending = t.sender.sendNow();
    let done = false;
    void sending.finally(() => (done = true));
    // A POS writing all along: every request waits for at most one short hold, none gets 300.
    let stores = 0;
    while (!done) {
      if (holds.length >= 3 && holds[2]!.records.some((r) => r.startsWith('start'))) answerLast?.();
      await t.lock.run('document/store', async () => undefined);
      stores += 1;
      await new Promise((r) => setTimeout(r, 1));
    }
    const sent = await sending;
    expect(stores).toBeGreaterThan(0);
    expect(sent.documents.map((d) => [d.document.documentNo, d.sendState, d.sendingCount])).toEqual(
      Array.from({ length: documents }, (_, i) => [i + 1, 'offline-sent', 2]),
    );
    // Oldest first.
    expect(left).toEqual(Array.from({ length: documents }, (_, i) => i + 1));
    // A batch opens with a probe of one; then each request found all of its window's starts in the CHDÚ.
    expect(startsAtRequest).toEqual([
      1,
      ...Array(SEND_WINDOW).fill(full),
      ...Array(documents - full).fill(documents),
    ]);
    const range = (kind: string, from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, i) => `${kind} ${from + i}`);
    // Outcomes go in the order the answers came (requests overlap); compare them by number.
    const byNumber = (a: string, b: string) =>
      a.split(' ')[0]!.localeCompare(b.split(' ')[0]!) || Number(a.split(' ')[1]) - Number(b.split(' ')[1]);
    for (const hold of holds) hold.records.sort(byNumber);
    const starts = (h: { records: string[] }) => h.records.filter((r) => r.startsWith('start'));
    const outcomes = (h: { records: string[] }) => h.records.filter((r) => r.startsWith('outcome'));
    expect(holds.every((h) => h.writes === 1)).toBe(true);
    expect(holds.map(starts)).toEqual([
      ['start 1'],
      range('start', 2, full),
      range('start', full + 1, documents),
      [],
    ]);
    // The probe's outcome goes with the first window's starts. ADR 1107: the next window's starts
    // are written once every request of a window has left, with the outcomes answered by then;
    // the others (at most the requests still in flight) go into the next hold.
    expect(outcomes(holds[0]!)).toEqual([]);
    expect(outcomes(holds[1]!)).toEqual(['outcome 1']);
    const early = outcomes(holds[2]!);
    expect(early.every((o) => Number(o.split(' ')[1]) <= full)).toBe(true);
    expect(early.length).toBeGreaterThanOrEqual(SEND_WINDOW - REQUESTS_IN_FLIGHT);
    expect([...early, ...outcomes(holds[3]!)].sort(byNumber)).toEqual(range('outcome', 2, documents));
    // The third window's starts were written while the second's last request waited for the SFS
    // (it is answered only then; waiting for it first would never get there).
    expect(outcomes(holds[3]!)).toContain(`outcome ${full}`);
    expect(t.sfs.maxInFlight).toBeLessThanOrEqual(REQUESTS_IN_FLIGHT);
  });

  it(`a batch opens with one request (a probe); then at most ${REQUESTS_IN_FLIGHT} wait for the SFS at once, the next leaving when one is answered, oldest first`, async () => {
    const n = 2 * REQUESTS_IN_FLIGHT;
    const t = await setup({ documents: n });
    const answers: Array<(o: SfsOutcome) => void> = [];
    t.sfs.script = Array.from({ length: n }, () => new Promise<SfsOutcome>((r) => answers.push(r)));
    const sending = t.sender.sendNow();
    const idle = async () => {
      // Give the others every chance to leave: they must not.
      for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    };
    await settle(() => t.sfs.inFlight === 1);
    await idle();
    expect(t.sfs.requests).toHaveLength(1);
    answers[0]!(accepted(1));
    await settle(() => t.sfs.inFlight === REQUESTS_IN_FLIGHT);
    await idle();
    expect(t.sfs.requests).toHaveLength(1 + REQUESTS_IN_FLIGHT);
    expect(t.lock.holder).toBeUndefined();
    answers[1]!(accepted(2));
    await settle(() => t.sfs.requests.length === 2 + REQUESTS_IN_FLIGHT);
    expect(t.sfs.inFlight).toBe(REQUESTS_IN_FLIGHT);
    for (const [i, answer] of answers.slice(2).entries()) answer(accepted(i + 3));
    expect((await sending).documents).toHaveLength(n);
    expect(t.sfs.maxInFlight).toBe(REQUESTS_IN_FLIGHT);
    expect(t.sfs.requests.map((r) => 'pkp' in r && Number(r.data.ReceiptNumber))).toEqual(
      Array.from({ length: n }, (_, i) => i + 1),
    );
  });

  it('in a background run only the first batch opens with a probe; the next ones start with a full window (ADR 1107)', async () => {
    const t = await setup({ documents: 80, settings: { resendBatchLimit: 40 } });
    // The starts each hold of the lock wrote.
    const startsPerHold: number[] = [];
    const appendMany = t.journal.appendMany!.bind(t.journal);
    t.journal.appendMany = async (records) => {
      startsPerHold.push(records.filter((r) => r.type === 'sfs-attempt').length);
      return appendMany(records);
    };
    t.sender.start();
    t.scheduler.advance(0);
    await settle(() => t.index.queueSummary().unsentDocuments === 0 && !t.sender.state.running);
    // Batch 1: a probe, a window of 32, the other 7, then its last outcomes; batch 2 the same
    // without the probe: 32 and 8; every start before its request, as always.
    expect(startsPerHold).toEqual([
      1,
      SEND_WINDOW,
      40 - 1 - SEND_WINDOW,
      0,
      SEND_WINDOW,
      40 - SEND_WINDOW,
      0,
    ]);
    expect(t.sfs.requests).toHaveLength(80);
    expect(t.sfs.requests.every((r) => r.header.SendingCount === '2')).toBe(true);
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

  it('a SendingCount is never used twice: the start of each attempt is in the CHDÚ before the request leaves (ADR 0705)', async () => {
    const t = await setup({ documents: 1 });
    // The register "stops" between the SFS call and the record of its outcome: that append fails.
    let outcomesLost = 1;
    const journal: Journal = {
      append: (record, options) =>
        record.type === 'sfs-exchange' && outcomesLost-- > 0
          ? Promise.reject(new FiscalError('CHDU_WRITE_ERROR', 'the register stopped'))
          : t.journal.append(record, options),
      records: (from) => t.journal.records(from),
      get: (no) => t.journal.get(no),
      head: () => t.journal.head(),
      verify: (o) => t.journal.verify(o),
    };
    let uuid = 0;
    const sender = new OfflineSender({
      journal,
      index: t.index,
      lock: t.lock,
      claims: t.claims,
      signers: { forMerchantRecord: async () => signer },
      scheduler: t.scheduler,
      readiness: { refusal: () => undefined },
      sfs: t.sfs,
      sfsTimeoutMs: 1000,
      swId: () => '8639BA17A8EEEF50FF559B90D36AE13B5E93DCDE',
      sfsHealth: new SfsHealth('scripted'),
      clock: { now: () => new Date('2026-03-02T10:20:00+01:00') },
      ids: { uuid: () => `33333333-3333-4333-8333-${String(++uuid).padStart(12, '0')}` },
    });
    closers.push(() => sender.stop());
    t.sfs.script = [unreachable];
    expect((await sender.sendNow()).documents).toEqual([]);
    // The outcome is lost, the start is not: SendingCount 2 is used.
    const doc = t.index.findDocument({ by: 'documentNo', documentNo: 1 })!;
    expect(doc).toMatchObject({ sendState: 'unsent', sendingCount: 2 });
    expect(doc.lastExchange?.sendingCount).toBe(1);
    expect((await sender.sendNow()).documents.map((d) => d.sendingCount)).toEqual([3]);
    expect(t.sfs.requests.map((r) => r.header.SendingCount)).toEqual(['2', '3']);
    const starts: Array<{ uuid: string; count: number }> = [];
    for await (const r of t.journal.records()) {
      if (r.type === 'sfs-attempt') starts.push({ uuid: r.body.requestUuid, count: r.body.sendingCount });
    }
    expect(starts).toEqual(
      t.sfs.requests.map((r) => ({ uuid: r.header.Uuid, count: Number(r.header.SendingCount) })),
    );
  });

  it('a refusal of the whole register (-13) leaves the item queued and ends the batch after the probe; the log names it; wake() (merchant/store) sends them all', async () => {
    const logs: string[] = [];
    const t = await setup({ documents: 6 }, (_level, message) => logs.push(message));
    t.sfs.script = [{ kind: 'rejected', code: -13, text: 'Certifikát nie je platný.' }];
    t.sender.start();
    t.scheduler.advance(0);
    await settle(() => t.scheduler.pending().length === 1 && !t.sender.state.running);
    expect(t.sfs.requests).toHaveLength(1);
    const states = [1, 2, 3, 4, 5, 6].map((n) => t.index.findDocument({ by: 'documentNo', documentNo: n })!);
    expect(states.map((d) => d.sendState)).toEqual(Array(6).fill('unsent'));
    expect(states[0]!.lastExchange).toMatchObject({ errorCode: -13, registerRefused: true, sendingCount: 2 });
    expect(t.index.queueSummary()).toMatchObject({ unsentDocuments: 6, stuckDocuments: 0 });
    // The backoff goes on (an SFS-side cause may pass), and the log says what is wrong.
    expect(t.scheduler.pending()).toEqual([1000]);
    expect(logs.join('\n')).toContain('refuses this register (-13');
    expect(logs.join('\n')).not.toContain('not reachable');

    t.sender.wake();
    expect(t.scheduler.pending()).toEqual([0]);
    t.scheduler.advance(0);
    await settle(() => t.index.queueSummary().unsentDocuments === 0 && !t.sender.state.running);
    expect(t.sfs.requests).toHaveLength(7);
    expect(t.index.findDocument({ by: 'documentNo', documentNo: 1 })).toMatchObject({
      sendState: 'offline-sent',
      sendingCount: 3,
    });
  });

  it('a window that ends early (-13 in the middle): requests already out finish and are recorded, the others never leave, and their next attempt skips the SendingCount their start took (a gap, never a reuse)', async () => {
    // The probe (document 1) goes through; the window of the others sends as many as may be in
    // flight, and they are refused; the last two never leave.
    const out = REQUESTS_IN_FLIGHT;
    const documents = 1 + out + 2;
    const t = await setup({ documents });
    const refused: SfsOutcome = { kind: 'rejected', code: -13, text: 'Certifikát nie je platný.' };
    t.sfs.script = [accepted(1), ...Array(out).fill(refused)];
    expect((await t.sender.sendNow()).documents.map((d) => d.document.documentNo)).toEqual([1]);
    expect(t.sfs.requests).toHaveLength(1 + out);
    const doc = (documentNo: number) => t.index.findDocument({ by: 'documentNo', documentNo })!;
    const rest = Array.from({ length: documents - 1 }, (_, i) => i + 2);
    expect(rest.map((n) => [doc(n).sendState, doc(n).sendingCount])).toEqual(
      Array(documents - 1).fill(['unsent', 2]),
    );
    const unsentNever = documents - 1;
    expect(doc(unsentNever).lastExchange?.sendingCount).toBe(1);
    expect((await t.sender.sendNow()).documents.map((d) => [d.document.documentNo, d.sendingCount])).toEqual(
      rest.map((n) => [n, 3]),
    );
    const counts = (n: number) =>
      t.sfs.requests
        .filter((r) => 'pkp' in r && Number(r.data.ReceiptNumber) === n)
        .map((r) => r.header.SendingCount);
    expect([1, ...rest].map(counts)).toEqual([['2'], ...Array(out).fill(['2', '3']), ['3'], ['3']]);
    const starts: number[] = [];
    for await (const r of t.journal.records()) {
      if (
        r.type === 'sfs-attempt' &&
        r.body.subject.kind === 'document' &&
        r.body.subject.documentNo === unsentNever
      )
        starts.push(r.body.sendingCount);
    }
    expect(starts).toEqual([2, 3]);
  });

  it('while the register cannot sign (no merchant) the log names that cause, not the SFS; wake() tries at once', async () => {
    const logs: string[] = [];
    let refusal: FiscalError | undefined = new FiscalError(
      'MERCHANT_CERTIFICATE_ERROR',
      'No merchant is stored.',
    );
    const t = await setup(
      { documents: 1 },
      (_level, message) => logs.push(message),
      () => refusal,
    );
    t.sender.start();
    t.scheduler.advance(0);
    await settle(() => t.scheduler.pending().length === 1 && !t.sender.state.running);
    expect(t.sfs.requests).toHaveLength(0);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toContain('No merchant is stored.');
    expect(logs[0]).not.toContain('not reachable');
    refusal = undefined;
    t.sender.wake();
    expect(t.scheduler.pending()).toEqual([0]);
    t.scheduler.advance(0);
    await settle(() => t.index.queueSummary().unsentDocuments === 0 && !t.sender.state.running);
    expect(t.sfs.requests).toHaveLength(1);
  });

  it("stop() waits for the requests in flight and records them; the window's others never leave, and nothing runs after", async () => {
    const t = await setup({ documents: 1 + REQUESTS_IN_FLIGHT + 2 });
    const answers: Array<(o: SfsOutcome) => void> = [];
    t.sfs.script = [
      accepted(1),
      ...Array.from({ length: REQUESTS_IN_FLIGHT }, () => new Promise<SfsOutcome>((r) => answers.push(r))),
    ];
    t.sender.start();
    t.scheduler.advance(0);
    await settle(() => t.sfs.inFlight === REQUESTS_IN_FLIGHT);
    const stopped = t.sender.stop();
    for (const [i, answer] of answers.entries()) answer(accepted(i + 2));
    await stopped;
    const state = (documentNo: number) => t.index.findDocument({ by: 'documentNo', documentNo })!.sendState;
    for (let n = 1; n <= 1 + REQUESTS_IN_FLIGHT; n++) expect(state(n)).toBe('offline-sent');
    expect(state(REQUESTS_IN_FLIGHT + 2)).toBe('unsent');
    expect(state(REQUESTS_IN_FLIGHT + 3)).toBe('unsent');
    t.sender.notify('accepted', 'request');
    expect(t.scheduler.pending()).toEqual([]);
    expect(t.sfs.requests).toHaveLength(1 + REQUESTS_IN_FLIGHT);
  });
});
