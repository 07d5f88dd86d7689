import { describe, expect, it } from 'vitest';
import { documentRecord, exchangeRecord } from '../../../../test/support/journal-fixtures.js';
import type { IndexedDocument } from '../../ports/indexed-records.js';
import type { DocumentDeps } from './document-deps.js';
import { unprintedStatusRefusal } from './unprinted-status.js';

/** The status's cause while `holder` holds the write lock and `doc` is the unprinted document. */
function cause(holder: string, doc: Partial<IndexedDocument>) {
  const unprinted: IndexedDocument = {
    recordNo: 2,
    document: documentRecord(7),
    sendState: 'unsent',
    sendingCount: 1,
    printState: 'pending',
    ...doc,
  };
  const index = { unprintedDocument: () => unprinted } as unknown as DocumentDeps['index'];
  return unprintedStatusRefusal({ index, lock: { holder } });
}

describe('the status while a request issues a document: BUSY, and what that request does', () => {
  it('a store or cash request whose document has no outcome yet waits for the SFS', () => {
    for (const holder of ['document/store', 'cash']) {
      const e = cause(holder, {});
      expect(e?.resultName).toBe('BUSY');
      expect(e?.details?.phase).toBe('sfs');
      expect(e?.message).toContain("it waits for the SFS's answer");
    }
  });

  it('document/print never sends: "printing", even for a document left without an outcome (a crash mid-store)', () => {
    const e = cause('document/print', {});
    expect(e?.details?.phase).toBe('printing');
    expect(e?.message).toContain('is still with POST /api/document/print: it is being printed');
  });

  it('a store whose document went offline, or was registered, is printing it', () => {
    const offline = cause('document/store', { lastExchange: exchangeRecord(7, 'unreachable') });
    expect(offline?.details?.phase).toBe('printing');
    const online = cause('document/store', {
      sendState: 'online',
      lastExchange: exchangeRecord(7, 'accepted'),
    });
    expect(online?.details?.phase).toBe('printing');
  });

  it('a repair of a document with an earlier outcome sends it again, then prints it', () => {
    const e = cause('document/update', { lastExchange: exchangeRecord(7, 'rejected') });
    expect(e?.details?.phase).toBe('resending');
  });
});
