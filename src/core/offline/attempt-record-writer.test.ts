import { describe, expect, it } from 'vitest';
import { FiscalError } from '../fiscal-error.js';
import type { SfsAttemptRecord, SfsExchangeRecord } from '../journal/records.js';
import type { Journal } from '../ports/journal.js';
import { WriteLock } from '../services/write-lock.js';
import {
  AttemptRecordWriter,
  RECORDS_PER_HOLD_SEPARATE_WRITES,
  RECORDS_PER_WRITE,
} from './attempt-record-writer.js';

const subject = (documentNo: number) => ({ kind: 'document' as const, documentNo });
const start = (n: number): SfsAttemptRecord => ({
  subject: subject(n),
  requestUuid: `11111111-1111-4111-8111-${String(n).padStart(12, '0')}`,
  requestDate: '2026-03-02T10:20:00+01:00',
  sendingCount: 2,
});
const outcome = (n: number): SfsExchangeRecord => ({
  ...start(n),
  outcome: 'unreachable',
  errorText: 'refused',
});

/** A journal whose multi-record appends finish only when the test lets them (gate), recording each write. */
function gatedJournal(
  lock: WriteLock,
  fail: (type: string, n: number) => boolean = () => false,
  oneWrite = true,
) {
  const written: string[] = [];
  const writes: string[][] = [];
  const gates: Array<() => void> = [];
  const journal: Pick<Journal, 'append' | 'appendMany' | 'manyInOneWrite'> = {
    manyInOneWrite: () => oneWrite,
    append: async () => {
      throw new Error('the writer appends through appendMany when the journal has it');
    },
    appendMany: async (records) => {
      expect(lock.holder).toBe('offline/resend');
      await new Promise<void>((r) => gates.push(r));
      const names = records.map((record) => {
        const n =
          'subject' in record.body && 'documentNo' in record.body.subject
            ? record.body.subject.documentNo
            : 0;
        if (fail(record.type, n)) throw new FiscalError('CHDU_WRITE_ERROR', 'the image cannot be written');
        return `${record.type} ${n}`;
      });
      written.push(...names);
      writes.push(names);
      return names.map((_, i) => ({ recordNo: written.length - names.length + i + 1 })) as never;
    },
  };
  /** Lets the oldest waiting write finish once one waits. */
  const next = async () => {
    while (gates.length === 0) await new Promise((r) => setImmediate(r));
    gates.shift()!();
    await new Promise((r) => setImmediate(r));
  };
  return { journal, written, writes, next, waiting: () => gates.length };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('AttemptRecordWriter (ADR 1105)', () => {
  it("a window's starts go in one write; each resolves only after it; outcomes wait for that write and go first in it; a claim ends once its outcome is written", async () => {
    const lock = new WriteLock();
    const j = gatedJournal(lock);
    const writer = new AttemptRecordWriter({ journal: j.journal, lock });
    const released: number[] = [];
    // The outcomes of the previous window: nothing is written for them alone.
    writer.outcome(subject(1), outcome(1), () => released.push(1));
    writer.outcome(subject(2), outcome(2), () => released.push(2));
    await tick();
    expect(j.waiting()).toBe(0);
    const write = writer.gather();
    const started: number[] = [];
    const starts = [3, 4, 5].map((n) => writer.start(start(n)).then(() => started.push(n)));
    await tick();
    expect(j.waiting()).toBe(0);
    write();
    await tick();
    expect(j.waiting()).toBe(1);
    expect(started).toEqual([]);
    expect(released).toEqual([]);
    await j.next();
    await Promise.all(starts);
    expect(started).toEqual([3, 4, 5]);
    expect(j.writes).toEqual([
      ['sfs-exchange 1', 'sfs-exchange 2', 'sfs-attempt 3', 'sfs-attempt 4', 'sfs-attempt 5'],
    ]);
    expect(released).toEqual([1, 2]);
    expect(writer.written(subject(1)) && writer.written(subject(2))).toBe(true);
  });

  it('drained() writes the outcomes that wait, together, even with no start to share the write', async () => {
    const lock = new WriteLock();
    const j = gatedJournal(lock);
    const writer = new AttemptRecordWriter({ journal: j.journal, lock });
    for (const n of [1, 2, 3]) writer.outcome(subject(n), outcome(n), () => undefined);
    const drained = writer.drained();
    await j.next();
    expect(await drained).toBeUndefined();
    expect(j.writes).toEqual([['sfs-exchange 1', 'sfs-exchange 2', 'sfs-exchange 3']]);
  });

  it("a client request waiting for the lock gets it after the sender's write in progress, before its next one, and is not refused", async () => {
    const lock = new WriteLock();
    const j = gatedJournal(lock);
    const writer = new AttemptRecordWriter({ journal: j.journal, lock });
    const total = RECORDS_PER_WRITE + 10;
    const write = writer.gather();
    const starts = Array.from({ length: total }, (_, i) => writer.start(start(i + 1)));
    write();
    await tick();
    const order: string[] = [];
    const client = lock.run('document/store', async () => {
      order.push(`client after ${j.written.length}`);
      return 'stored';
    });
    expect(lock.clientWaiting).toBe(true);
    await j.next();
    await expect(client).resolves.toBe('stored');
    expect(order).toEqual([`client after ${RECORDS_PER_WRITE}`]);
    await j.next();
    await Promise.all(starts);
    expect(j.writes.map((w) => w.length)).toEqual([RECORDS_PER_WRITE, 10]);
  });

  it('after a write fails nothing more is written: its starts reject (their requests never leave), waiting outcomes are released unwritten, later starts refused', async () => {
    const lock = new WriteLock();
    const j = gatedJournal(lock, (type, n) => type === 'sfs-attempt' && n === 3);
    const writer = new AttemptRecordWriter({ journal: j.journal, lock });
    const released: number[] = [];
    writer.outcome(subject(1), outcome(1), () => released.push(1));
    const write = writer.gather();
    const s3 = expect(writer.start(start(3))).rejects.toThrow('cannot be written');
    write();
    await j.next();
    await s3;
    writer.outcome(subject(2), outcome(2), () => released.push(2));
    expect(await writer.drained()).toContain('cannot be written');
    expect(released).toEqual([1, 2]);
    expect(j.written).toEqual([]);
    expect(writer.written(subject(1)) || writer.written(subject(2))).toBe(false);
    await expect(writer.start(start(4))).rejects.toThrow('could not be written');
    expect(j.waiting()).toBe(0);
  });

  it('on a CHDÚ that writes records one by one (CHDU Lite), a hold takes at most 8 records, and a waiting client gets the lock between holds', async () => {
    const lock = new WriteLock();
    const j = gatedJournal(lock, () => false, false);
    const w = new AttemptRecordWriter({ journal: j.journal, lock });
    const write = w.gather();
    const starts = Array.from({ length: 20 }, (_, i) => w.start(start(i + 1)));
    write();
    // The first hold waits for its write; a POS request arrives meanwhile.
    while (j.waiting() === 0) await tick();
    const order: string[] = [];
    const client = lock.run('document/store', async () => {
      order.push(`client after ${j.written.length} records`);
    });
    await j.next();
    await client;
    for (let i = 0; i < 2; i++) await j.next();
    await Promise.all(starts);
    expect(j.writes.map((names) => names.length)).toEqual([8, 8, 4]);
    expect(Math.max(...j.writes.map((names) => names.length))).toBeLessThanOrEqual(
      RECORDS_PER_HOLD_SEPARATE_WRITES,
    );
    expect(order).toEqual(['client after 8 records']);
  });
});
