import { describe, expect, it } from 'vitest';
import { FiscalError } from '../fiscal-error.js';
import type { SfsAttemptRecord, SfsExchangeRecord } from '../journal/records.js';
import type { Journal } from '../ports/journal.js';
import { WriteLock } from '../services/write-lock.js';
import { AttemptRecordWriter } from './attempt-record-writer.js';

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

/** A journal whose appends finish only when the test lets them (gate), recording holder and order. */
function gatedJournal(lock: WriteLock, fail: (type: string, n: number) => boolean = () => false) {
  const written: string[] = [];
  const gates: Array<() => void> = [];
  const journal: Pick<Journal, 'append'> = {
    append: async (record) => {
      const n =
        'subject' in record.body && 'documentNo' in record.body.subject ? record.body.subject.documentNo : 0;
      expect(lock.holder).toBe('offline/resend');
      await new Promise<void>((r) => gates.push(r));
      if (fail(record.type, n)) throw new FiscalError('CHDU_WRITE_ERROR', 'the image cannot be written');
      written.push(`${record.type} ${n}`);
      return { no: written.length, type: record.type, body: record.body } as never;
    },
  };
  /** Lets the oldest waiting append finish once one waits. */
  const next = async () => {
    while (gates.length === 0) await new Promise((r) => setImmediate(r));
    gates.shift()!();
    await new Promise((r) => setImmediate(r));
  };
  return { journal, written, next };
}

describe('AttemptRecordWriter', () => {
  it('a start resolves only once its record is written, and goes before waiting outcomes; a claim ends after its outcome is written', async () => {
    const lock = new WriteLock();
    const j = gatedJournal(lock);
    const writer = new AttemptRecordWriter({ journal: j.journal, lock });
    const released: number[] = [];
    writer.outcome(subject(1), outcome(1), () => released.push(1));
    writer.outcome(subject(2), outcome(2), () => released.push(2));
    let started = false;
    const s3 = writer.start(start(3)).then(() => (started = true));
    await j.next(); // outcome 1 was already being written
    expect(released).toEqual([1]);
    expect(started).toBe(false);
    await j.next(); // then the start, before outcome 2
    await s3;
    expect(j.written).toEqual(['sfs-exchange 1', 'sfs-attempt 3']);
    expect(released).toEqual([1]);
    await j.next();
    expect(await writer.drained()).toBeUndefined();
    expect(j.written).toEqual(['sfs-exchange 1', 'sfs-attempt 3', 'sfs-exchange 2']);
    expect(released).toEqual([1, 2]);
    expect(writer.written(subject(1)) && writer.written(subject(2))).toBe(true);
  });

  it('a client request waiting for the lock ends the hold after the record being written, and is not refused', async () => {
    const lock = new WriteLock();
    const j = gatedJournal(lock);
    const writer = new AttemptRecordWriter({ journal: j.journal, lock });
    for (const n of [1, 2, 3]) writer.outcome(subject(n), outcome(n), () => undefined);
    await new Promise((r) => setImmediate(r));
    const order: string[] = [];
    const client = lock.run('document/store', async () => {
      order.push(`client after ${j.written.length}`);
      return 'stored';
    });
    expect(lock.clientWaiting).toBe(true);
    await j.next();
    await expect(client).resolves.toBe('stored');
    expect(order).toEqual(['client after 1']);
    await j.next();
    await j.next();
    expect(await writer.drained()).toBeUndefined();
    expect(j.written).toEqual(['sfs-exchange 1', 'sfs-exchange 2', 'sfs-exchange 3']);
  });

  it('after a record cannot be written nothing more is: waiting outcomes are released unwritten, later starts refused', async () => {
    const lock = new WriteLock();
    const j = gatedJournal(lock, (type, n) => type === 'sfs-exchange' && n === 1);
    const writer = new AttemptRecordWriter({ journal: j.journal, lock });
    const released: number[] = [];
    writer.outcome(subject(1), outcome(1), () => released.push(1));
    writer.outcome(subject(2), outcome(2), () => released.push(2));
    await j.next();
    expect(await writer.drained()).toContain('cannot be written');
    expect(released).toEqual([1, 2]);
    expect(j.written).toEqual([]);
    expect(writer.written(subject(1)) || writer.written(subject(2))).toBe(false);
    await expect(writer.start(start(3))).rejects.toThrow('could not be written');
    expect(j.written).toEqual([]);
  });
});
