import { FiscalError, invalidInput } from '../../fiscal-error.js';
import type { IndexedLocation } from '../../ports/indexed-records.js';
import type { LocationIndex } from '../../ports/location-index.js';
import { locationSfsFailure } from '../location/location-failure.js';

/** What a `fixLocation` does: repair a stuck location, or answer one already repaired. */
export type LocationRepairTarget =
  | { kind: 'repair'; stuck: IndexedLocation }
  | { kind: 'repaired'; location: IndexedLocation };

/**
 * Which location `POST /api/location/update {fixLocation}` repairs (ADR 0717). Without
 * `locationInternalId`: the last location the SFS rejected (ADR 0708), as the API text's request
 * has no target (API compatibility). With it, the POS names the location it means, so a repeated
 * request can never fix another one:
 *
 * - the stuck location stored last → repaired;
 * - stuck, but one stored after it is stuck too → 701 naming the one to repair first (the last
 *   stored first: `lastStuckLocation`, the highest internalId, is what ADR 0708 repairs);
 * - repaired already and no longer stuck (registered, or queued when the repair's send found no
 *   SFS) → `repaired`: answered as it stands, nothing written or sent (a retry whose first answer
 *   was lost, as ADR 0715 answers a document);
 * - set aside → its SFS error (`locationSfsFailure`, ADR 0707 amended);
 * - never rejected → 701 naming `locationInternalId`; unknown → 506, as `offline/set-aside` answers.
 *
 * @throws FiscalError 500 (no target and nothing stuck), 501/502 (set aside), 506, 701.
 */
export function locationRepairTarget(
  index: Pick<LocationIndex, 'findLocation' | 'lastStuckLocation'>,
  locationInternalId: number | undefined,
): LocationRepairTarget {
  const last = index.lastStuckLocation();
  if (locationInternalId === undefined) {
    if (!last)
      throw new FiscalError(
        'NO_FIX_NEEDED',
        'No location waits for repair: nothing was rejected by the SFS.',
      );
    return { kind: 'repair', stuck: last };
  }
  const location = index.findLocation(locationInternalId);
  if (!location) {
    throw new FiscalError(
      'NOT_FOUND',
      `Location with locationInternalId ${locationInternalId} does not exist.`,
    );
  }
  const name = describe(location);
  if (location.sendState === 'stuck') {
    if (last === undefined || last.location.locationNo === locationInternalId) {
      return { kind: 'repair', stuck: location };
    }
    const no = last.location.locationNo;
    throw invalidInput(
      'locationInternalId',
      `${name} waits for repair, but ${describe(last)}, stored after it, is stuck too and must be repaired first: stuck locations are repaired the last stored first, the one a fixLocation without a target repairs. Repair that one with {"locationInternalId": ${no}, "fixLocation": …} (or set it aside with POST /api/offline/set-aside {"locationInternalId": ${no}, "reason": "…"}), then this one`,
    );
  }
  if (location.sendState === 'set-aside') throw locationSfsFailure(location);
  const registered = location.sendState === 'online' || location.sendState === 'offline-sent';
  if (location.repairedBy !== undefined && (registered || location.sendState === 'unsent')) {
    return { kind: 'repaired', location };
  }
  const why = registered
    ? 'is registered with the SFS and was never rejected'
    : 'was not rejected by the SFS: it waits to be sent and the register sends it';
  const next =
    last === undefined ? 'nothing waits for repair' : `the location to repair is ${describe(last)}`;
  throw invalidInput('locationInternalId', `${name} ${why}, so there is nothing to repair; ${next}`);
}

function describe(location: IndexedLocation): string {
  return `location ${location.location.locationNo} (locationInternalId ${location.location.locationNo})`;
}
