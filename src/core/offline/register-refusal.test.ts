import { describe, expect, it } from 'vitest';
import { documentRecord, exchangeRecord } from '../../../test/support/journal-fixtures.js';
import type { QueueEntry } from '../ports/indexed-records.js';
import { registerHold, registerHoldRefusal } from './register-refusal.js';

/** A send queue of the given entries, counting the rows read. */
function queue(entries: QueueEntry[]) {
  const reads = { rows: 0 };
  return {
    reads,
    index: {
      hasUnsent: () => entries.length > 0,
      sendQueue: (limit: number) => {
        const got = entries.slice(0, limit);
        reads.rows += got.length + 1;
        return got;
      },
      queueSummary: () => ({
        unsentDocuments: entries.length,
        unsentLocations: 0,
        stuckDocuments: 0,
        stuckLocations: 0,
        setAsideDocuments: 0,
        setAsideLocations: 0,
      }),
    },
  };
}

const held = (code: number): QueueEntry => ({
  kind: 'document',
  recordNo: 5,
  item: {
    recordNo: 5,
    document: documentRecord(2),
    sendState: 'unsent',
    sendingCount: 2,
    lastExchange: {
      ...exchangeRecord(2, 'rejected', 2),
      errorCode: code,
      errorText: 'Neplatný certifikát',
      registerRefused: true,
    },
    printState: 'printed',
  },
});

describe('registerHold (ADR 0711; ADR 1113: an empty queue reads no row)', () => {
  it('an empty queue: no hold, and the queue itself is not read', () => {
    const q = queue([]);
    expect(registerHold(q.index)).toBeUndefined();
    expect(registerHoldRefusal(q.index)).toBeUndefined();
    expect(q.reads.rows).toBe(0);
  });

  it('the oldest item refused for the whole register holds; a refusal of one message does not', () => {
    const q = queue([held(-13)]);
    expect(registerHold(q.index)).toMatchObject({ code: -13, text: 'Neplatný certifikát', entry: held(-13) });
    expect(registerHoldRefusal(q.index)).toMatchObject({ resultCode: 402 });
    expect(q.reads.rows).toBeGreaterThan(0);
    const single = held(-13);
    const { registerRefused: _wholeRegister, ...oneMessage } = single.item.lastExchange!;
    single.item.lastExchange = oneMessage;
    expect(registerHold(queue([single]).index)).toBeUndefined();
  });
});
