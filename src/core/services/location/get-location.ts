import { FiscalError } from '../../fiscal-error.js';
import { toApiLocation } from '../../location/api-location.js';
import { merchantViewOf, type OfflineDeps } from '../offline/offline-deps.js';
import { locationNotAccepted, locationSfsFailure } from './location-failure.js';
import type { LocationResponse } from './update-location.js';

/**
 * `GET /api/location/get`: the last location stored; never set → 506 (HTTP 404, API text). One the
 * SFS did not accept (stuck, or set aside) answers the error `location/update` answered for it
 * (501, or 502 for a reason of time), never 0 as if registered (ADR 0707 amended, like
 * `document/get` under ADR 0119 amended). Its data stay readable in the offline report.
 */
export class GetLocation {
  constructor(private readonly deps: Pick<OfflineDeps, 'index' | 'clock'>) {}

  execute(): LocationResponse {
    const last = this.deps.index.lastLocation();
    if (!last)
      throw new FiscalError('NOT_FOUND', 'Location not found: no location was ever set on this register.');
    if (locationNotAccepted(last)) throw locationSfsFailure(last);
    return {
      resultCode: 0,
      location: toApiLocation(last, merchantViewOf(this.deps, last.location.merchantRecordNo)),
    };
  }
}
