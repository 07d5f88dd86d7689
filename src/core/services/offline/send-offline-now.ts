import { toApiDocument } from '../../documents/api-document.js';
import { isAbsent } from '../../documents/field-rules.js';
import { invalidInput } from '../../fiscal-error.js';
import { toApiLocation } from '../../location/api-location.js';
import type { SentItems } from '../../offline/offline-sender.js';
import { merchantViewOf, type OfflineDeps } from './offline-deps.js';
import type { OfflineItemsResponse } from './offline-report.js';
import { REPORT_MAX_ITEMS } from './offline-report.js';

/**
 * `POST /api/document/send/offline {limit?}` (API text; capability 10): sends one batch of the queue now
 * (at most `limit`, default the batch limit setting) and waits for it, each attempt bounded by the
 * online limit. Answers what this call registered — documents with uuid, processDate and
 * sendingCount, and locations; empty lists when nothing waited or the SFS could not be reached.
 */
export class SendOfflineNow {
  constructor(
    private readonly deps: Pick<OfflineDeps, 'index' | 'clock'>,
    private readonly sender: { sendNow(limit?: number): Promise<SentItems> },
  ) {}

  async execute(input: { limit?: number | null | undefined }): Promise<OfflineItemsResponse> {
    let limit: number | undefined;
    if (!isAbsent(input.limit)) {
      if (!Number.isInteger(input.limit) || input.limit < 1 || input.limit > REPORT_MAX_ITEMS) {
        throw invalidInput('limit', `must be a whole number from 1 to ${REPORT_MAX_ITEMS}`);
      }
      limit = input.limit;
    }
    const sent = await this.sender.sendNow(limit);
    return {
      resultCode: 0,
      documents: sent.documents.map((doc) => ({
        ...toApiDocument(doc, merchantViewOf(this.deps, doc.document.merchantRecordNo)),
        status: {},
      })),
      locations: sent.locations.map((loc) =>
        toApiLocation(loc, merchantViewOf(this.deps, loc.location.merchantRecordNo)),
      ),
    };
  }
}
