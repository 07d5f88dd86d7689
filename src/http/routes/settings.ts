import type { SettingsView } from '../../core/services/settings/get-settings.js';
import type { StoreSettings } from '../../core/services/settings/store-settings.js';
import type { RoutePlugin } from '../app.js';
import { errorResponses } from '../schemas/common.js';
import { SettingsResponse, StoreSettingsRequest, StoreSettingsResponse } from '../schemas/settings.js';

/**
 * `GET /api/settings/get` and `PUT /api/settings/store` (API text: Settings; capability 12). Like every
 * endpoint outside ADR 0008 §11's list they answer only while the register can work.
 */
export function settingsRoutes(deps: { get: () => SettingsView; store: StoreSettings }): RoutePlugin {
  return (app) => {
    app.get(
      '/api/settings/get',
      {
        schema: {
          tags: ['settings'],
          summary: 'Every setting in force, and which are fixed by a flag',
          response: { 200: SettingsResponse, ...errorResponses },
        },
      },
      async () => deps.get(),
    );
    app.put(
      '/api/settings/store',
      {
        schema: {
          tags: ['settings'],
          summary: 'Change any subset of the settings; they apply at once and are kept in the CHDÚ',
          description:
            'Validates every key first (unknown key, bad value, a key fixed by a flag sent with another value: 701 naming it), opens a new printer or SFS target (701 naming the key when it cannot be opened; the old one stays), writes one settings record into the CHDÚ and applies it without a restart. Sending back exactly what GET /api/settings/get returned is always accepted (ADR 0008 §3): its read-only members resultCode, fixed and fixedBy are ignored; nothing is written when nothing changes. 300 while another writing request runs.',
          body: StoreSettingsRequest,
          response: { 200: StoreSettingsResponse, ...errorResponses },
        },
      },
      async (request) => deps.store.execute(request.body.settings),
    );
  };
}
