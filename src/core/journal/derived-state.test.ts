import { describe, expect, it } from 'vitest';
import {
  afterAttemptStarted,
  afterExchange,
  afterPrint,
  afterRepair,
  NEW_PRINT_TRACK,
  NEW_SEND_TRACK,
} from './derived-state.js';
import type { SfsExchangeRecord } from './records.js';

const x = (outcome: SfsExchangeRecord['outcome'], sendingCount = 1): SfsExchangeRecord => ({
  subject: { kind: 'document', documentNo: 1 },
  requestUuid: 'u',
  requestDate: '2026-03-02T10:15:31+01:00',
  sendingCount,
  outcome,
  ...(outcome === 'accepted' ? { id: 'O-1' } : {}),
});

describe('send state', () => {
  it('is online when the first exchange is accepted', () => {
    const t = afterExchange(NEW_SEND_TRACK, x('accepted'));
    expect(t).toMatchObject({ sendState: 'online', exchanges: 1, sendingCount: 1, accepted: { id: 'O-1' } });
  });

  it('stays unsent while unreachable, then becomes offline-sent on acceptance', () => {
    let t = afterExchange(NEW_SEND_TRACK, x('unreachable'));
    expect(t.sendState).toBe('unsent');
    t = afterExchange(t, x('invalid-response', 2));
    expect(t.sendState).toBe('unsent');
    t = afterExchange(t, x('accepted', 3));
    expect(t).toMatchObject({ sendState: 'offline-sent', sendingCount: 3, exchanges: 3 });
  });

  it('is stuck after a rejection until a repair puts it back in the queue', () => {
    let t = afterExchange(NEW_SEND_TRACK, x('rejected'));
    expect(t.sendState).toBe('stuck');
    t = afterExchange(t, x('unreachable', 2));
    expect(t.sendState).toBe('stuck');
    t = afterRepair(t);
    expect(t.sendState).toBe('unsent');
  });

  it('a refusal of the whole register keeps the item queued (ADR 0711); a set-aside is final', () => {
    let t = afterExchange(afterExchange(NEW_SEND_TRACK, x('unreachable')), {
      ...x('rejected', 2),
      errorCode: -13,
      registerRefused: true,
    });
    expect(t).toMatchObject({ sendState: 'unsent', sendingCount: 2 });
    t = afterExchange(t, { ...x('rejected', 3), errorCode: -117 });
    expect(t.sendState).toBe('stuck');
    const reason = { reason: 'r', errorCode: -117, errorText: 't' };
    t = afterRepair(t, { setAside: reason });
    expect(t.sendState).toBe('set-aside');
    expect(afterRepair(afterExchange(t, x('accepted', 4))).sendState).toBe('set-aside');
  });

  it('the start of an attempt uses its SendingCount at once, whatever its outcome (ADR 0705)', () => {
    const t = afterExchange(NEW_SEND_TRACK, x('unreachable'));
    const started = afterAttemptStarted(t, { ...x('unreachable', 2), sendingCount: 2 });
    expect(started).toMatchObject({ sendState: 'unsent', sendingCount: 2, exchanges: 1 });
    expect(afterAttemptStarted(started, { ...x('unreachable', 1), sendingCount: 1 }).sendingCount).toBe(2);
  });

  it('never leaves a final state', () => {
    let t = afterExchange(NEW_SEND_TRACK, x('accepted'));
    t = afterExchange(t, x('rejected', 2));
    expect(t.sendState).toBe('online');
    expect(afterRepair(t).sendState).toBe('online');
  });

  it('is stuck after a duplicate (601) or an unverifiable answer (602)', () => {
    expect(afterExchange(NEW_SEND_TRACK, x('duplicate')).sendState).toBe('stuck');
    expect(afterExchange(afterExchange(NEW_SEND_TRACK, x('unreachable')), x('unverified', 2)).sendState).toBe(
      'stuck',
    );
  });
});

describe('print state', () => {
  it('follows the original, not copies', () => {
    let t = afterPrint(NEW_PRINT_TRACK, { documentNo: 1, copy: false, ok: false, printerCode: 102 });
    expect(t).toEqual({ printState: 'failed', lastPrinterCode: 102 });
    t = afterPrint(t, { documentNo: 1, copy: true, ok: true });
    expect(t.printState).toBe('failed');
    t = afterPrint(t, { documentNo: 1, copy: false, ok: true });
    expect(t).toEqual({ printState: 'printed' });
    expect(afterPrint(t, { documentNo: 1, copy: false, ok: false, printerCode: 101 })).toEqual({
      printState: 'printed',
    });
    expect(afterPrint(NEW_PRINT_TRACK, { documentNo: 1, copy: false, ok: true, electronic: true })).toEqual({
      printState: 'electronic',
    });
  });

  it('remembers that a failed print reached the printer (its drawer kick), through later failures', () => {
    const partialPrint = { totalBytes: 900, resumeOffset: 15, printedLines: 0, jobSha256: 'a'.repeat(64) };
    let t = afterPrint(NEW_PRINT_TRACK, { documentNo: 1, copy: false, ok: false, printerCode: 102 });
    expect(t.printStarted).toBeUndefined();
    t = afterPrint(t, { documentNo: 1, copy: false, ok: false, printerCode: 106, partialPrint });
    expect(t).toEqual({ printState: 'failed', lastPrinterCode: 106, printStarted: true });
    t = afterPrint(t, { documentNo: 1, copy: false, ok: false, printerCode: 105 });
    expect(t).toEqual({ printState: 'failed', lastPrinterCode: 105, printStarted: true });
    expect(afterPrint(t, { documentNo: 1, copy: false, ok: true })).toEqual({ printState: 'printed' });
  });

  it('remembers that a failed print sent its drawer kick (ADR 0517), apart from printStarted: not handed over', () => {
    let t = afterPrint(NEW_PRINT_TRACK, {
      documentNo: 1,
      copy: false,
      ok: false,
      printerCode: 102,
      drawerOpened: true,
    });
    expect(t).toEqual({ printState: 'failed', lastPrinterCode: 102, drawerOpened: true });
    t = afterPrint(t, { documentNo: 1, copy: false, ok: false, printerCode: 105 });
    expect(t).toEqual({ printState: 'failed', lastPrinterCode: 105, drawerOpened: true });
    expect(afterPrint(t, { documentNo: 1, copy: false, ok: true })).toEqual({ printState: 'printed' });
  });
});

describe('the form of the original (ADR 0713)', () => {
  const partialPrint = { totalBytes: 900, resumeOffset: 400, printedLines: 12, jobSha256: 'b'.repeat(64) };

  it('is fixed by the first print that reached the customer, never by a copy or an attempt that put nothing on paper', () => {
    // Nothing on paper: the form it tried is not the customer's.
    let t = afterPrint(NEW_PRINT_TRACK, {
      documentNo: 1,
      copy: false,
      ok: false,
      printerCode: 105,
      form: 'offline',
    });
    expect(t).toEqual({ printState: 'failed', lastPrinterCode: 105 });
    // A copy changes nothing (there is none before the original, but the fold must not care).
    t = afterPrint(t, { documentNo: 1, copy: true, ok: true, form: 'offline' });
    expect(t.receiptForm).toBeUndefined();
    t = afterPrint(t, { documentNo: 1, copy: false, ok: true, form: 'uid' });
    expect(t).toEqual({ printState: 'printed', receiptForm: 'uid' });
    // Nothing after the original changes it.
    expect(afterPrint(t, { documentNo: 1, copy: true, ok: true, form: 'offline' })).toEqual(t);
    expect(afterPrint(t, { documentNo: 1, copy: false, ok: true, form: 'offline' })).toEqual(t);
  });

  it('is kept from a print cut short (part of it on paper) through the resumed print that finishes it', () => {
    let t = afterPrint(NEW_PRINT_TRACK, {
      documentNo: 1,
      copy: false,
      ok: false,
      printerCode: 106,
      partialPrint,
      form: 'offline',
    });
    expect(t).toEqual({
      printState: 'failed',
      lastPrinterCode: 106,
      printStarted: true,
      receiptForm: 'offline',
    });
    t = afterPrint(t, { documentNo: 1, copy: false, ok: false, printerCode: 105, form: 'uid' });
    expect(t.receiptForm).toBe('offline');
    expect(afterPrint(t, { documentNo: 1, copy: false, ok: true, form: 'uid' })).toEqual({
      printState: 'printed',
      receiptForm: 'offline',
    });
  });

  it('of an electronic receipt is its form; print records older than ADR 0713 leave it unknown', () => {
    expect(
      afterPrint(NEW_PRINT_TRACK, { documentNo: 1, copy: false, ok: true, electronic: true, form: 'uid' }),
    ).toEqual({ printState: 'electronic', receiptForm: 'uid' });
    let t = afterPrint(NEW_PRINT_TRACK, {
      documentNo: 1,
      copy: false,
      ok: false,
      printerCode: 106,
      partialPrint,
    });
    expect(t.receiptForm).toBeUndefined();
    // A print record of today finishing a cut written before: its form is the one it was laid out in.
    t = afterPrint(t, { documentNo: 1, copy: false, ok: true, form: 'offline' });
    expect(t).toEqual({ printState: 'printed', receiptForm: 'offline' });
    expect(afterPrint(NEW_PRINT_TRACK, { documentNo: 1, copy: false, ok: true })).toEqual({
      printState: 'printed',
    });
  });
});
