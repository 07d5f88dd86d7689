import type { IndexedLocation } from './indexed-records.js';

/** The locations role of the journal index (locations of a PORTABLE register, spec §3.5). */
export interface LocationIndex {
  /** Highest locationNo used, 0 when none. */
  lastLocationNo(): number;
  /** The last location stored (whatever its send state). */
  lastLocation(): IndexedLocation | undefined;
  findLocation(locationNo: number): IndexedLocation | undefined;
  /**
   * The last location the SFS rejected that waits for repair (fixLocation), if any: of the stuck
   * locations, the one with the highest locationNo (ADR 0708, ADR 0717).
   */
  lastStuckLocation(): IndexedLocation | undefined;
}
