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
            'Only the data sent change; the repaired version is a new CHDÚ record and is sent at once. 500 when nothing is stuck, 701 naming the field of an invalid fix, 501 (with the new SFS code) when the SFS rejects it again, 502 when it rejects it for a reason of time (ADR 0714). docs/offline.md lists which fix clears which SFS code.',
          body: UpdateDocumentRequest,
          response: { 200: DocumentResponse, ...errorResponses },
        },
      },
      async (request) => {
        const fix = request.body.fixDocument;
        if (fix === undefined || fix === null) throw invalidInput('fixDocument', 'is required');
        return deps.repair.execute(fix);
      },
    );
  };
}
