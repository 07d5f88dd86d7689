import { describe, expect, it } from 'vitest';
import type { SfsExchangeRecord } from '../journal/records.js';
import { receiptFormOf } from './receipt-form.js';

const UID = 'O-544C525A6D5B47198C525A6D5BC';
const accepted = (sendingCount: number): SfsExchangeRecord => ({
  subject: { kind: 'document', documentNo: 1 },
  requestUuid: '3f0c2a7e-5b1d-4c8e-9a2f-6d1e0b7c4a11',
  requestDate: '2026-03-02T10:15:31+01:00',
  sendingCount,
  outcome: 'accepted',
  id: UID,
});

type Facts = Parameters<typeof receiptFormOf>[0];
const online: Facts = { sendState: 'online', accepted: accepted(1), printState: 'pending' };
const sentLater: Facts = { sendState: 'offline-sent', accepted: accepted(2), printState: 'pending' };
const unsent: Facts = { sendState: 'unsent', printState: 'pending' };

describe('receiptFormOf (ADR 0713)', () => {
  it('an original not handed over yet takes the form of now: the UID once the SFS gave one (SFS spec §2.10), else offline (§2.9)', () => {
    expect(receiptFormOf(online)).toEqual({ form: 'uid', uid: UID });
    // Registered by a resend or a repair before anything reached the customer.
    expect(receiptFormOf(sentLater)).toEqual({ form: 'uid', uid: UID });
    expect(receiptFormOf({ ...sentLater, printState: 'failed' })).toEqual({
      form: 'uid',
      uid: UID,
    });
    expect(receiptFormOf(unsent)).toEqual({ form: 'offline' });
    expect(receiptFormOf({ ...unsent, sendState: 'stuck' })).toEqual({ form: 'offline' });
  });

  it('a handed-over original keeps the form recorded with it, whatever the SFS said later', () => {
    expect(receiptFormOf({ ...sentLater, printState: 'printed', receiptForm: 'offline' })).toEqual({
      form: 'offline',
    });
    expect(receiptFormOf({ ...sentLater, printState: 'printed', receiptForm: 'uid' })).toEqual({
      form: 'uid',
      uid: UID,
    });
    // Cut short offline, registered since: the rest is printed offline too (ADR 0712).
    expect(
      receiptFormOf({ ...sentLater, printState: 'failed', printStarted: true, receiptForm: 'offline' }),
    ).toEqual({ form: 'offline' });
  });

  it('an original whose print records are older than ADR 0713: the earlier rule, which is what its paper shows', () => {
    expect(receiptFormOf({ ...online, printState: 'printed' })).toEqual({ form: 'uid', uid: UID });
    expect(receiptFormOf({ ...online, printState: 'electronic' })).toEqual({ form: 'uid', uid: UID });
    expect(receiptFormOf({ ...sentLater, printState: 'printed' })).toEqual({ form: 'offline' });
    expect(receiptFormOf({ ...sentLater, printState: 'failed', printStarted: true })).toEqual({
      form: 'offline',
    });
  });

  it('a VK/VY not sent by law is neither (ADR 0515); a recorded UID form without a UID is not printed as one', () => {
    expect(receiptFormOf({ sendState: 'not-sent', printState: 'pending' })).toEqual({ form: 'not-sent' });
    expect(receiptFormOf({ sendState: 'not-sent', printState: 'printed', receiptForm: 'not-sent' })).toEqual({
      form: 'not-sent',
    });
    expect(receiptFormOf({ ...unsent, printState: 'printed', receiptForm: 'uid' })).toEqual({
      form: 'offline',
    });
  });
});
