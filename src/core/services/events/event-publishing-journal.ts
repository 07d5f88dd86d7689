import type { JournalRecord, NewRecord } from '../../journal/records.js';
import type {
  AppendOptions,
  Journal,
  JournalHead,
  VerifyOptions,
  VerifyReport,
} from '../../ports/journal.js';
import type { RegisterEvents } from '../../ports/register-events.js';
import { type DocumentFacts, documentEvents } from './document-events.js';

/**
 * The journal the use cases write through (ADR 0805): every append, once durable and indexed,
 * publishes the document events its record stands for and tells the state watcher to look again
 * (`afterAppend`), so state events follow the document events that caused them. Reading is
 * passed through unchanged.
 *
 * An append that rejects publishes nothing: an event is only ever about a record in the CHDÚ. A
 * record whose answer was lost (ADR 0114) is found by the consistency check and indexed; it gets
 * no event, and a POS learns it from the document look-up it makes after an error anyway.
 */
export class EventPublishingJournal implements Journal {
  constructor(
    private readonly journal: Journal,
    private readonly events: RegisterEvents,
    private readonly facts: (documentNo: number) => DocumentFacts | undefined,
    private readonly afterAppend: () => void = () => undefined,
  ) {}

  async append(record: NewRecord, options?: AppendOptions): Promise<JournalRecord> {
    const written = await this.journal.append(record, options);
    for (const event of documentEvents(written, this.facts)) this.events.publish(event);
    this.afterAppend();
    return written;
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
