import { invalidInput } from '../../core/fiscal-error.js';
import type { RepairDocument } from '../../core/services/offline/repair-document.js';
import type { RoutePlugin } from '../app.js';
import { errorResponses } from '../schemas/common.js';
import { DocumentResponse } from '../schemas/documents.js';
import { UpdateDocumentRequest } from '../schemas/offline.js';

/** `POST /api/document/update` (capability 10; API text: document/update). */
export function repairRoutes(deps: { repair: RepairDocument }): RoutePlugin {
  return (app) => {
    app.post(
      '/api/document/update',
      {
        schema: {
          tags: ['offline'],
          summary: 'Repair the oldest document the SFS rejected (fixDocument) and send it again',
          description:
            'Name the document with `internalDocumentId` (recommended): a repeated request then answers that document as it stands once it was repaired (0, or 507 while unprinted; nothing sent or printed again) instead of fixing the next stuck document; a stuck document that is not the oldest is 701 naming the one to repair first, a set-aside one its SFS error, one never rejected 701, an unknown one 506 (ADR 0715). Without it the oldest stuck document is repaired. Only the data sent change; the repaired version is a new CHDÚ record and is sent at once. 500 when nothing is stuck, 701 naming the field of an invalid fix, 501 (with the new SFS code) when the SFS rejects it again, 502 when it rejects it for a reason of time (ADR 0714). docs/offline.md lists which fix clears which SFS code.',
          body: UpdateDocumentRequest,
          response: { 200: DocumentResponse, ...errorResponses },
        },
      },
      async (request) => {
        const fix = request.body.fixDocument;
        if (fix === undefined || fix === null) throw invalidInput('fixDocument', 'is required');
        const target = request.body.internalDocumentId ?? undefined;
        return deps.repair.execute(fix, target);
      },
    );
  };
}
