import type { SetAside } from '../../core/services/offline/set-aside.js';
import type { RoutePlugin } from '../app.js';
import { errorResponses } from '../schemas/common.js';
import { SetAsideRequest, SetAsideResponse } from '../schemas/offline.js';

/**
 * `POST /api/offline/set-aside` (ADR 0711): an extension to the API text (marked so in the
 * OpenAPI document) — the operator's audited way out for an item the SFS rejected and no fix clears.
 */
export function setAsideRoutes(deps: { setAside: SetAside }): RoutePlugin {
  return (app) => {
    app.post(
      '/api/offline/set-aside',
      {
        schema: {
          tags: ['offline'],
          summary: 'Set a rejected document or location aside for the tax office (extension)',
          description:
            'Extension (not in the API v1.7 text; ADR 0711, docs/offline.md). For an item the SFS rejected that no fix clears: writes a repair record with the reason into the CHDÚ; nothing is deleted. The item is never sent again and never counts as registered, no longer blocks sales (501), and stays in the offline report and status as set aside. 701 for an item that is registered or merely waits for the network, 506 for an unknown one.',
          'x-kasa-extension': true,
          body: SetAsideRequest,
          response: { 200: SetAsideResponse, ...errorResponses },
        },
      },
      async (request) => deps.setAside.execute(request.body),
    );
  };
}
