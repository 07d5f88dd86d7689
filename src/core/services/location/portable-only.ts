import { invalidInput } from '../../fiscal-error.js';
import type { UsableMerchant } from '../merchant-session.js';

/**
 * ADR 0008 §6 (ADR 0708): locations are for PORTABLE registers; a STANDARD register's place is its
 * organisation unit's address, so a location update there is a 701.
 */
export function assertPortable(merchant: UsableMerchant): void {
  if (merchant.merchant.organizationUnit.cashRegisterType !== 'PORTABLE') {
    throw invalidInput(
      'cashRegisterType',
      'location updates are for PORTABLE registers; a STANDARD register is at its organisation unit address',
    );
  }
}
