import { FiscalError } from '../../fiscal-error.js';
import { stuckCause } from '../../offline/last-request.js';
import type { IndexedLocation } from '../../ports/indexed-records.js';
import { isTimeRefusal } from '../../sfs/ekasa-errors.js';
import { sfsTextInSentence } from '../../sfs/error-text.js';

/** Stuck or set aside: the SFS did not accept the location; it is not registered. */
export function locationNotAccepted(indexed: IndexedLocation): boolean {
  return indexed.sendState === 'stuck' || indexed.sendState === 'set-aside';
}

/**
 * The error for a location the SFS did not accept, naming it (`internalId`) with the SFS code and
 * text: 501, or 502 when the SFS refused it for a reason of time (−108 … −110, −132; ADR 0714).
 * What `location/update` answers for the location it just sent, and what `location/get` answers
 * for a last location that is stuck or set aside (ADR 0707 amended, as `document/get` does for a
 * document, ADR 0119 amended).
 */
export function locationSfsFailure(indexed: IndexedLocation): FiscalError {
  const { code, text } = stuckCause({ kind: 'location', recordNo: indexed.recordNo, item: indexed });
  const time = indexed.lastExchange?.outcome === 'rejected' && isTimeRefusal(code);
  const state =
    indexed.sendState === 'set-aside'
      ? 'It was set aside for the tax office (POST /api/offline/set-aside): it was never registered and is never sent again.'
      : `It is stored; ${time ? "check the register's clock, then " : ''}repair it with POST /api/location/update {"locationInternalId": ${indexed.location.locationNo}, "fixLocation": …}.`;
  return new FiscalError(
    time ? 'INCORRECT_TIME' : 'LAST_REQUEST_INVALID',
    `The SFS rejected location ${indexed.location.locationNo} with ${code}: ${sfsTextInSentence(text)}. ${state}`,
    {
      ekasaError: { errorType: 'EKASA', errorCode: code, message: text, detail: '' },
      internalId: indexed.location.locationNo,
    },
  );
}
