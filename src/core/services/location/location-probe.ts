import { stuckCause } from '../../offline/last-request.js';
import type { LocationIndex } from '../../ports/location-index.js';
import type { MerchantIndex } from '../../ports/merchant-index.js';
import type { ComponentStatus, StatusProbe } from '../register-status.js';

/**
 * `LOCATION` of `GET /api/status/get` (capability 10): a PORTABLE register warns while it has never
 * registered a location (spec §2: required each time its point of sale changes); a STANDARD one
 * is at its organisation unit's address (ADR 0008 §6).
 */
export function locationProbe(index: LocationIndex & MerchantIndex): StatusProbe {
  return {
    component: 'LOCATION',
    check(): ComponentStatus {
      const merchant = index.currentMerchant()?.merchant;
      if (!merchant) {
        return {
          component: 'LOCATION',
          state: 'NOT_CONFIGURED',
          reasonCode: 0,
          reason: 'No merchant is stored.',
        };
      }
      if (merchant.organizationUnit.cashRegisterType !== 'PORTABLE') {
        return {
          component: 'LOCATION',
          state: 'OK',
          reasonCode: 0,
          reason: 'A STANDARD register sells at its organisation unit address; no location updates.',
          details: { cashRegisterType: 'STANDARD' },
        };
      }
      const last = index.lastLocation();
      if (!last) {
        return {
          component: 'LOCATION',
          state: 'WARNING',
          reasonCode: 506,
          reason:
            'This PORTABLE register has never registered a location: send it with POST /api/location/update.',
          details: { cashRegisterType: 'PORTABLE' },
        };
      }
      const details = {
        cashRegisterType: 'PORTABLE',
        internalId: last.location.locationNo,
        kind: last.location.sfs.location.kind,
        createDate: last.location.sfs.CreateDate,
        sendState: last.sendState,
      };
      if (last.sendState === 'stuck') {
        const { code, text } = stuckCause({ kind: 'location', recordNo: last.recordNo, item: last });
        return {
          component: 'LOCATION',
          state: 'ERROR',
          reasonCode: 501,
          reason: `The SFS rejected location ${last.location.locationNo} (${code}: ${text}); repair it with POST /api/location/update {"locationInternalId": ${last.location.locationNo}, "fixLocation": …}.`,
          details,
        };
      }
      if (last.sendState === 'set-aside') {
        // ADR 0711: the last location was never registered; the register's place is not known
        // to the SFS until a new one is sent.
        return {
          component: 'LOCATION',
          state: 'WARNING',
          reasonCode: 506,
          reason: `Location ${last.location.locationNo} was set aside for the tax office and never registered: send the current location with POST /api/location/update.`,
          details,
        };
      }
      return {
        component: 'LOCATION',
        state: 'OK',
        reasonCode: 0,
        reason:
          last.sendState === 'unsent'
            ? `Location ${last.location.locationNo} is stored and waits to be sent to the SFS.`
            : `Location ${last.location.locationNo} is registered.`,
        details,
      };
    },
  };
}
