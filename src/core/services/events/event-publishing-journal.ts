import { appendEach } from '../../journal/append-each.js';
import type { JournalRecord, NewRecord } from '../../journal/records.js';
import type { DocumentFacts } from '../../ports/document-index.js';
import type {
  AppendOptions,
  Journal,
  JournalHead,
  VerifyOptions,
  VerifyReport,
} from '../../ports/journal.js';
import type { RegisterEvents } from '../../ports/register-events.js';
import { documentEvents } from './document-events.js';

/**
 * The journal the use cases write through (ADR 0805): every append, once durable and indexed,
 * publishes the document events its record stands for and tells the state watcher to look again
 * (`afterAppend`), so state events follow the document events that caused them. Reading is
 * passed through unchanged.
 *
 * An event is only ever about a record in the CHDÚ. An append that rejects may still have landed
 * whole: the device's answer to the last block was lost, or the record is written but not printed
 * through the CHDÚ (ADR 0114, 0116). The record it was to become is then read back, as the store
 * flow does (`landedAnyway`): when the CHDÚ holds that very record its events are published before
 * the error goes on, so `document.stored` precedes the `document.registered` of the same sale.
 * When the read-back fails too (the CHDÚ is gone), nothing is published: the consistency check
 * indexes the record later without an event, and the POS learns of it from the look-up it makes
 * after an error (docs/integration.md § 6).
 */
export class EventPublishingJournal implements Journal {
  constructor(
    private readonly journal: Journal,
    private readonly events: RegisterEvents,
    private readonly facts: (documentNo: number) => DocumentFacts | undefined,
    private readonly afterAppend: () => void = () => undefined,
  ) {}

  async append(record: NewRecord, options?: AppendOptions): Promise<JournalRecord> {
    // One writer at a time (WriteLock): the record takes the number after the head read now.
    const expected = (this.journal.head()?.recordNo ?? 0) + 1;
    let written: JournalRecord;
    try {
      written = await this.journal.append(record, options);
    } catch (e) {
      const landed = await this.landedAnyway(expected, record);
      if (landed) this.publish(landed);
      throw e;
    }
    this.publish(written);
    return written;
  }

  /**
   * Several records in as few writes as the journal underneath allows (ADR 1105: the offline
   * sender's window of attempt records in one CHDÚ write), each written record publishing its
   * events in order, then one look of the state watcher. Without this the sender's records went
   * one write (and one flush) each. After a failed write the records the CHDÚ took before it are in
   * the journal (`Journal.appendMany`): their events are published before the error goes on.
   */
  async appendMany(records: readonly NewRecord[]): Promise<JournalRecord[]> {
    const inner = this.journal;
    if (!inner.appendMany) return appendEach((record) => this.append(record), records);
    const first = (inner.head()?.recordNo ?? 0) + 1;
    let written: JournalRecord[];
    try {
      written = await inner.appendMany(records);
    } catch (e) {
      const landed: JournalRecord[] = [];
      const last = Math.min(inner.head()?.recordNo ?? 0, first + records.length - 1);
      for (let no = first; no <= last; no++) {
        const there = await inner.get(no).catch(() => undefined);
        if (there) landed.push(there);
      }
      this.publishAll(landed);
      throw e;
    }
    this.publishAll(written);
    return written;
  }

  /** Whether `appendMany` is one device write (the journal underneath says; ADR 1105). */
  manyInOneWrite(): boolean {
    return this.journal.appendMany !== undefined && (this.journal.manyInOneWrite?.() ?? false);
  }

  private publishAll(written: readonly JournalRecord[]): void {
    if (written.length === 0) return;
    for (const record of written) {
      for (const event of documentEvents(record, this.facts)) this.events.publish(event);
    }
    this.afterAppend();
  }

  private publish(written: JournalRecord): void {
    for (const event of documentEvents(written, this.facts)) this.events.publish(event);
    this.afterAppend();
  }

  /** The record at `recordNo`, when it is the one whose append just failed (same type and body). */
  private async landedAnyway(recordNo: number, record: NewRecord): Promise<JournalRecord | undefined> {
    const there = await this.journal.get(recordNo).catch(() => undefined);
    // The body is stored as its JSON text (record-codec): equal text is the same record.
    return there?.type === record.type && JSON.stringify(there.body) === JSON.stringify(record.body)
      ? there
      : undefined;
  }

  records(fromRecordNo?: number): AsyncIterable<JournalRecord> {
    return this.journal.records(fromRecordNo);
  }

  get(recordNo: number): Promise<JournalRecord | undefined> {
    return this.journal.get(recordNo);
  }

  head(): JournalHead | undefined {
    return this.journal.head();
  }

  verify(options?: VerifyOptions): Promise<VerifyReport> {
    return this.journal.verify(options);
  }
}
