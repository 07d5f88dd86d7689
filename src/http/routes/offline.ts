import type { OfflineReport } from '../../core/services/offline/offline-report.js';
import type { SendOfflineNow } from '../../core/services/offline/send-offline-now.js';
import type { RoutePlugin } from '../app.js';
import { errorResponses } from '../schemas/common.js';
import {
  GetOfflineDocumentsRequest,
  GetOfflineRequest,
  OfflineReportResponse,
  OldestOfflineResponse,
  SendOfflineRequest,
  SendOfflineResponse,
} from '../schemas/offline.js';

/** RFC 9745: the date `POST /api/document/get/offline` was deprecated (2026-11-23), as `@<epoch s>`. */
const DEPRECATED_SINCE = '@1795392000';

export interface OfflineRouteDeps {
  report: OfflineReport;
  sendNow: SendOfflineNow;
}

/** The Report API and the offline document endpoints (capability 10; API text: Report API, send/offline). */
export function offlineRoutes(deps: OfflineRouteDeps): RoutePlugin {
  return (app) => {
    app.post(
      '/api/document/send/offline',
      {
        schema: {
          tags: ['offline'],
          summary: 'Send stored offline documents and locations to the SFS now',
          description:
            'Sends one batch (at most `limit`, default the resendBatchLimit setting) and waits for it, each attempt bounded by the online limit. Answers what this call registered; empty lists when nothing waited or the SFS could not be reached. The register also sends the queue by itself (docs/offline.md).',
          body: SendOfflineRequest,
          response: { 200: SendOfflineResponse, ...errorResponses },
        },
      },
      async (request) => deps.sendNow.execute(request.body),
    );
    app.post(
      '/api/report/offline',
      {
        schema: {
          tags: ['offline'],
          summary: 'Report of documents and locations not registered with the SFS (optionally printed)',
          description:
            'Documents (offline and stuck) first, then locations, in creation order; `offset` skips exactly that many items, `limit` caps them (1000 at most and by default); `totalItems` counts the items matching in all and `moreItems` says whether more follow this page. With `printer` the report is printed too; it never holds the register (sales go on meanwhile), one printed report at a time (300). A print cut short answers the printer code with `offset` to resume at.',
          body: GetOfflineDocumentsRequest,
          response: { 200: OfflineReportResponse, ...errorResponses },
        },
      },
      async (request) => deps.report.execute(request.body),
    );
    app.get(
      '/api/report/offline/oldest',
      {
        schema: {
          tags: ['offline'],
          summary: 'The oldest document or location not registered with the SFS',
          response: { 200: OldestOfflineResponse, ...errorResponses },
        },
      },
      async () => deps.report.oldest(),
    );
    app.post(
      '/api/document/get/offline',
      {
        schema: {
          tags: ['offline'],
          summary: 'Deprecated: the unsent documents and locations (use POST /api/report/offline)',
          description:
            'Answers with a `Deprecation` header (RFC 9745); the same data as POST /api/report/offline.',
          deprecated: true,
          body: GetOfflineRequest,
          response: { 200: OfflineReportResponse, ...errorResponses },
        },
      },
      async (request, reply) => {
        const body = request.body;
        reply.header('deprecation', DEPRECATED_SINCE);
        reply.header('link', '</api/report/offline>; rel="successor-version"');
        return deps.report.execute({
          limit: body.limit,
          offset: body.offset,
          offlineDocumentsFilter: body.offlineDocumentsFilter ?? {
            sequenceId: body.sequenceId,
            from: body.from,
            to: body.to,
          },
        });
      },
    );
  };
}
