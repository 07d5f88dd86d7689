import { isAbsent } from '../../documents/field-rules.js';
import { fiscalInstant } from '../../documents/numbering.js';
import { invalidInput } from '../../fiscal-error.js';
import type { LocationRecord } from '../../journal/records.js';
import { type LocationKindsInput, presentKinds, validateLocation } from '../../location/location-input.js';
import { nextSendingCount } from '../../offline/sending-count.js';
import type { IndexedLocation } from '../../ports/indexed-records.js';
import { formatApiDateTime, formatSfsDateTime, parseApiDateTime, parseSfsDateTime } from '../../time.js';
import { assertLastDocumentPrinted } from '../documents/issue-document.js';
import { attemptLocation, recordStartIn } from '../documents/send-attempt.js';
import { assertPortable } from '../location/portable-only.js';
import { type LocationResponse, locationAnswer } from '../location/update-location.js';
import { locationRepairTarget } from './location-repair-target.js';
import type { OfflineDeps } from './offline-deps.js';

/** `fixLocation` of `POST /api/location/update` (API v1.7 text, the Location models). */
export interface FixLocationInput extends LocationKindsInput {
  createDate?: string | null | undefined;
  useLastMerchant?: boolean | null | undefined;
}

/**
 * `POST /api/location/update {fixLocation, locationInternalId?}` (capability 10): repairs the last
 * location the SFS rejected — the one `locationInternalId` names, which must be it (ADR 0717;
 * `locationRepairTarget` answers a location already repaired, set aside or never rejected) — with
 * a new CreateDate (bounded: see `#createDate`), another location, the merchant in force, or
 * nothing (`{}`: sent again as it is), as a `repair` record, and sends it at once. Nothing stuck
 * → 500; an invalid fix or target → 701 naming the member; refused again → it stays stuck, 501
 * with the SFS code (502 for a reason of time, ADR 0714).
 */
export class RepairLocation {
  constructor(private readonly deps: OfflineDeps) {}

  async execute(fix: FixLocationInput, locationInternalId?: number): Promise<LocationResponse> {
    return this.deps.lock.run('location/update+fix', async () => {
      const current = this.deps.merchant.currentSigner();
      assertPortable(current);
      const target = locationRepairTarget(this.deps.index, locationInternalId);
      // ADR 0717: a retry whose first answer was lost writes and sends nothing.
      if (target.kind === 'repaired') return locationAnswer(this.deps, target.location.location.locationNo);
      const stuck = target.stuck;
      assertLastDocumentPrinted(this.deps);

      const changes: Record<string, unknown> = {};
      const data = structuredClone(stuck.location.sfs);
      let merchantRecordNo: number | undefined;
      if (fix.useLastMerchant === true) {
        data.Dic = current.merchant.dic;
        data.CashRegisterCode = current.merchant.organizationUnit.cashRegisterCode;
        merchantRecordNo = current.recordNo;
        changes.useLastMerchant = true;
      }
      if (!isAbsent(fix.createDate)) {
        data.CreateDate = formatSfsDateTime(this.#createDate(fix.createDate, stuck, merchantRecordNo));
        changes.createDate = data.CreateDate;
      }
      if (presentKinds(fix).length > 0) {
        const validated = validateLocation(fix, 'fixLocation.');
        data.location = validated.location;
        changes.location = validated.location;
      }
      // Nothing given (`{}`): sent again as it is, with a fresh signature and SendingCount + 1 —
      // like an empty fixDocument; it clears 602 and transient causes (ADR 0708).

      const { locationNo } = stuck.location;
      const release = this.deps.claims.claim({ kind: 'location', locationNo });
      try {
        await this.deps.journal.append({
          type: 'repair',
          body: {
            subject: { kind: 'location', locationNo },
            reason: `fixLocation after SFS ${stuck.lastExchange?.errorCode ?? stuck.lastExchange?.outcome ?? 'rejection'}`,
            location: data,
            ...(merchantRecordNo === undefined ? {} : { merchantRecordNo }),
            fix: changes,
          },
        });
        const repaired: LocationRecord = {
          ...stuck.location,
          sfs: data,
          ...(merchantRecordNo === undefined ? {} : { merchantRecordNo }),
        };
        const signer =
          merchantRecordNo === undefined
            ? await this.deps.signers.forMerchantRecord(stuck.location.merchantRecordNo)
            : current.signer;
        const attempt = await attemptLocation(
          this.deps,
          repaired,
          signer,
          nextSendingCount(stuck.sendingCount),
          { onStart: recordStartIn(this.deps.journal) },
        );
        await this.deps.journal.append({ type: 'sfs-exchange', body: attempt.exchange });
      } finally {
        release?.();
      }
      return locationAnswer(this.deps, locationNo);
    });
  }

  /**
   * A new CreateDate for the location (ADR 0708): not in the future (SFS -108), not before the
   * previous location's CreateDate (the locations of a register stay in the order it moved; one set
   * aside does not count, it was never registered: ADR 0711, as ADR 0117 amended), and
   * not before the certificate it is signed under became valid (the register could not have
   * signed anything earlier). It may lie before the original CreateDate: a register whose clock
   * ran ahead is refused with -108, and the fix is the earlier, true time.
   */
  #createDate(value: unknown, stuck: IndexedLocation, merchantRecordNo: number | undefined): Date {
    const field = 'fixLocation.createDate';
    const parsed = typeof value === 'string' ? parseApiDateTime(value) : undefined;
    if (!parsed) {
      throw invalidInput(field, 'must be dd.MM.yyyy HH:mm:ss (Bratislava time) or ISO 8601 with an offset');
    }
    const created = fiscalInstant(parsed);
    if (created.getTime() > this.deps.clock.now().getTime()) {
      throw invalidInput(field, 'must not be in the future (SFS -108)');
    }
    const previous = this.#previousNotSetAside(stuck.location.locationNo)?.location.sfs.CreateDate;
    const previousAt = previous === undefined ? undefined : parseSfsDateTime(previous);
    if (previousAt !== undefined && created.getTime() < previousAt.getTime()) {
      throw invalidInput(
        field,
        `must not be before the previous location's createDate (${formatApiDateTime(previousAt)})`,
      );
    }
    const signer = this.deps.index.merchantByRecordNo(merchantRecordNo ?? stuck.location.merchantRecordNo);
    const validFrom = signer === undefined ? undefined : parseSfsDateTime(signer.notBefore);
    if (validFrom !== undefined && created.getTime() < validFrom.getTime()) {
      throw invalidInput(
        field,
        `must not be before the certificate it is signed under became valid (${formatApiDateTime(validFrom)})`,
      );
    }
    return created;
  }

  /** The last location before `locationNo` that is not set aside, if any. */
  #previousNotSetAside(locationNo: number): IndexedLocation | undefined {
    for (let no = locationNo - 1; no >= 1; no--) {
      const location = this.deps.index.findLocation(no);
      if (location?.sendState !== 'set-aside') return location;
    }
    return undefined;
  }
}
