import { FiscalError } from '../../fiscal-error.js';
import { toApiLocation } from '../../location/api-location.js';
import { merchantViewOf, type OfflineDeps } from '../offline/offline-deps.js';
import type { LocationResponse } from './update-location.js';

/** `GET /api/location/get`: the last location stored; never set → 506 (HTTP 404, API text). */
export class GetLocation {
  constructor(private readonly deps: Pick<OfflineDeps, 'index' | 'clock'>) {}

  execute(): LocationResponse {
    const last = this.deps.index.lastLocation();
    if (!last)
      throw new FiscalError('NOT_FOUND', 'Location not found: no location was ever set on this register.');
    return {
      resultCode: 0,
      location: toApiLocation(last, merchantViewOf(this.deps, last.location.merchantRecordNo)),
    };
  }
}
