import { fiscalInstant } from '../../documents/numbering.js';
import { FiscalError } from '../../fiscal-error.js';
import type { LocationRecord } from '../../journal/records.js';
import { type ApiLocation, toApiLocation } from '../../location/api-location.js';
import { type LocationKindsInput, validateLocation } from '../../location/location-input.js';
import type { MerchantView } from '../../merchant/merchant-record.js';
import { lastRequestRefusal } from '../../offline/last-request.js';
import { formatSfsDateTime } from '../../time.js';
import { assertIndexCurrent, assertLastDocumentPrinted } from '../documents/issue-document.js';
import { attemptLocation } from '../documents/send-attempt.js';
import { merchantViewOf, type OfflineDeps } from '../offline/offline-deps.js';
import { locationSfsFailure } from './location-failure.js';
import { assertPortable } from './portable-only.js';

export interface LocationResponse {
  resultCode: 0;
  location: ApiLocation<MerchantView>;
}

/**
 * `POST /api/location/update` with a new location (API text: Location; spec §3.5): a PORTABLE
 * register stores where it sells now — validated as the protocol reference §1.7 says, written to
 * the CHDÚ (no document number, ADR 0008 §5), registered with RegisterLocation within the online
 * limit or queued for the background sender. Refused like every CHDÚ write while the last stored
 * request is stuck (501) or the last document is unprinted (508).
 */
export class UpdateLocation {
  constructor(private readonly deps: OfflineDeps) {}

  async execute(input: LocationKindsInput): Promise<LocationResponse> {
    return this.deps.lock.run('location/update', async () => {
      const merchant = this.deps.merchant.currentSigner();
      assertPortable(merchant);
      const refusal = lastRequestRefusal(this.deps.index);
      if (refusal) throw refusal;
      assertLastDocumentPrinted(this.deps);
      const validated = validateLocation(input);
      assertIndexCurrent(this.deps);

      const m = merchant.merchant;
      const record: LocationRecord = {
        locationNo: this.deps.index.lastLocationNo() + 1,
        merchantRecordNo: merchant.recordNo,
        sfs: {
          Dic: m.dic,
          CashRegisterCode: m.organizationUnit.cashRegisterCode,
          CreateDate: formatSfsDateTime(fiscalInstant(this.deps.clock.now())),
          location: validated.location,
        },
        ...(validated.country === undefined ? {} : { country: validated.country }),
      };
      const release = this.deps.claims.claim({ kind: 'location', locationNo: record.locationNo });
      try {
        await this.deps.journal.append({ type: 'location', body: record });
        const attempt = await attemptLocation(this.deps, record, merchant.signer, 1);
        await this.deps.journal.append({ type: 'sfs-exchange', body: attempt.exchange });
      } finally {
        release?.();
      }
      return locationAnswer(this.deps, record.locationNo);
    });
  }
}

/**
 * The answer for a location just sent: 0 when registered or queued; when stuck, 501 with the SFS
 * code, or 502 when the SFS refused it for a reason of time (−108 … −110, −132; ADR 0714).
 */
export function locationAnswer(deps: OfflineDeps, locationNo: number): LocationResponse {
  const indexed = deps.index.findLocation(locationNo);
  if (!indexed)
    throw new FiscalError('UNKNOWN', `location ${locationNo} is not in the index after writing it`);
  if (indexed.sendState === 'stuck') throw locationSfsFailure(indexed);
  return {
    resultCode: 0,
    location: toApiLocation(indexed, merchantViewOf(deps, indexed.location.merchantRecordNo)),
  };
}
