import { invalidInput } from '../../core/fiscal-error.js';
import type { GetLocation } from '../../core/services/location/get-location.js';
import type { UpdateLocation } from '../../core/services/location/update-location.js';
import type { RepairLocation } from '../../core/services/offline/repair-location.js';
import type { RoutePlugin } from '../app.js';
import { errorResponses } from '../schemas/common.js';
import { LocationResponse, UpdateLocationRequest } from '../schemas/location.js';

export interface LocationRouteDeps {
  update: UpdateLocation;
  repair: RepairLocation;
  get: GetLocation;
}

/** The Location API of a PORTABLE register (capability 10; API text: Location API). */
export function locationRoutes(deps: LocationRouteDeps): RoutePlugin {
  return (app) => {
    app.post(
      '/api/location/update',
      {
        schema: {
          tags: ['location'],
          summary: 'Set the location of a PORTABLE register, or repair the last rejected one (fixLocation)',
          description:
            'Exactly one of physicalAddress, gps {x: longitude, y: latitude}, other; stored in the CHDÚ and registered with the SFS (or queued when it does not answer). `fixLocation` alone repairs the last location the SFS rejected (500 when none). Name the location with `locationInternalId` (recommended): a repeated repair then answers that location as it stands once it was repaired (0; nothing sent again) instead of fixing another stuck location; a stuck location while one stored after it is stuck too is 701 naming the one to repair first (the last stored first), a set-aside one its SFS error, one never rejected 701, an unknown one 506 (ADR 0717). A STANDARD register gets 701.',
          body: UpdateLocationRequest,
          response: { 200: LocationResponse, ...errorResponses },
        },
      },
      async (request) => {
        const { fixLocation, locationInternalId, ...kinds } = request.body;
        if (fixLocation !== undefined && fixLocation !== null) {
          const extra = (['physicalAddress', 'gps', 'other'] as const).find(
            (k) => kinds[k] !== undefined && kinds[k] !== null,
          );
          if (extra) throw invalidInput(extra, 'give fixLocation alone (put the location inside it)');
          return deps.repair.execute(fixLocation, locationInternalId ?? undefined);
        }
        if (locationInternalId !== undefined && locationInternalId !== null) {
          // ADR 0717: it names the location a fix is for; a new location gets its internalId when stored.
          throw invalidInput(
            'locationInternalId',
            'names the location a fixLocation is for: give it with fixLocation',
          );
        }
        return deps.update.execute(kinds);
      },
    );
    app.get(
      '/api/location/get',
      {
        schema: {
          tags: ['location'],
          summary: 'The last location of the register',
          description:
            'HTTP 404 with resultCode 506 when no location was ever set. A last location the SFS did not accept (stuck, or set aside) answers its SFS error — 501, or 502 for a reason of time — with `internalId` and `ekasaError`, never 0 as if registered (ADR 0707 amended).',
          response: { 200: LocationResponse, ...errorResponses },
        },
      },
      async () => deps.get.execute(),
    );
  };
}
