import { toApiDocument } from '../../documents/api-document.js';
import { isAbsent, readText } from '../../documents/field-rules.js';
import { isNotBlank } from '../../documents/text-rules.js';
import { FiscalError, invalidInput } from '../../fiscal-error.js';
import type { ApiLocation } from '../../location/api-location.js';
import { toApiLocation } from '../../location/api-location.js';
import type { MerchantView } from '../../merchant/merchant-record.js';
import { stuckCause } from '../../offline/last-request.js';
import {
  type RegisterHold,
  registerHold,
  registerRefusalKind,
  setAsideOncePersisting,
} from '../../offline/register-refusal.js';
import type { SendSubject } from '../../offline/send-claims.js';
import type { QueueEntry } from '../../ports/indexed-records.js';
import { sfsTextInSentence } from '../../sfs/error-text.js';
import { parseSfsDateTime } from '../../time.js';
import { merchantViewOf, type OfflineDeps } from './offline-deps.js';
import { type ApiOfflineDocument, offlineStatus } from './offline-report.js';

/** `POST /api/offline/set-aside` (extension, ADR 0711). */
export interface SetAsideInput {
  internalDocumentId?: number | null | undefined;
  locationInternalId?: number | null | undefined;
  reason?: string | null | undefined;
}

export interface SetAsideResponse {
  resultCode: 0;
  document?: ApiOfflineDocument;
  location?: ApiLocation<MerchantView>;
}

/** The longest reason kept with a set-aside item (it is written into the CHDÚ). */
export const SET_ASIDE_REASON_MAX_CHARS = 255;

/**
 * Sets an item the SFS rejected aside for the tax office (ADR 0711): the operator's way out when
 * no fix clears the rejection (a content rule kasa does not know, a duplicate, an identity whose
 * certificate is gone). Writes one `repair` record with `setAside` and the operator's reason; the
 * item and its history stay in the CHDÚ, it is never sent again and never counts as registered,
 * it no longer blocks sales (501), and the report and status keep listing it as "set aside: needs
 * the tax office". Only an item the SFS rejected qualifies — one that merely waits for the network
 * is sent by the register, never set aside.
 *
 * @throws FiscalError 701 naming the member (none or both ids, no reason, an item that does not
 *   qualify), 506 when the item does not exist, 300 while it is being sent.
 */
export class SetAside {
  constructor(private readonly deps: OfflineDeps) {}

  async execute(input: SetAsideInput): Promise<SetAsideResponse> {
    const target = readTarget(input);
    const reason = readText(input.reason, 'reason', SET_ASIDE_REASON_MAX_CHARS, {
      allowNewlines: false,
      allowTab: false,
    });
    if (reason === undefined || !isNotBlank(reason)) {
      throw invalidInput(
        'reason',
        `is required: 1–${SET_ASIDE_REASON_MAX_CHARS} characters saying why it is set aside (kept in the CHDÚ for the tax office)`,
      );
    }
    // Not refused by 501 or 508: setting the rejected last request aside is a way out of them.
    return this.deps.lock.run('offline/set-aside', async () => {
      const entry = this.#find(target);
      assertRejected(entry, target.field, registerHold(this.deps.index));
      await this.#assertNotTheRegister(entry, target.field);
      const { code, text } = stuckCause(entry);
      const release = this.deps.claims.claim(target.subject);
      if (!release) {
        throw new FiscalError('BUSY', `${target.name} is being sent right now; try again in a moment.`);
      }
      try {
        await this.deps.journal.append({
          type: 'repair',
          body: {
            subject: target.subject,
            reason: `set aside for the tax office: ${reason}`,
            setAside: { reason, errorCode: code, errorText: text },
          },
        });
      } finally {
        release();
      }
      return this.#answer(this.#find(target));
    });
  }

  /**
   * A refusal of the whole register (ADR 0711) is not the SFS's word on the item: its certificate
   * or interface codes (-8, -10, -12, -13) do not qualify — the document is fine, the register's
   * data are not. Its identity codes (-101, -102) qualify only once they persist after a
   * `merchant/store`: the item was created before the merchant data now in force and the SFS
   * refused it again with them loaded (e.g. documents issued before a DIČ change whose old
   * certificate is gone). So do the certificate codes of a document the customer already holds,
   * which can only be sent as it was signed (ADR 0712).
   */
  async #assertNotTheRegister(entry: QueueEntry, field: string): Promise<void> {
    const { code, text } = stuckCause(entry);
    const kind = registerRefusalKind(code);
    if (!kind) return;
    const what = entry.kind === 'document' ? 'the document' : 'the location';
    const refused = `the SFS refused it with ${code} (${sfsTextInSentence(text)}): ${kind.cause}`;
    if (!setAsideOncePersisting(entry, code)) {
      throw invalidInput(
        field,
        `cannot be set aside: ${refused} — a problem of the register, not of ${what}, which is fine. ${capital(kind.todo)}; ${what} is sent then. Setting aside is never a way to skip sending (ADR 0711)`,
      );
    }
    const current = this.deps.index.currentMerchant();
    const stored = current ? await this.deps.journal.get(current.recordNo) : undefined;
    const storedAt = stored ? parseSfsDateTime(stored.writtenAt) : undefined;
    const triedAt = parseSfsDateTime(entry.item.lastExchange?.requestDate ?? '');
    const persists =
      current !== undefined &&
      current.recordNo > entry.recordNo &&
      storedAt !== undefined &&
      triedAt !== undefined &&
      triedAt.getTime() >= storedAt.getTime();
    if (!persists) {
      throw invalidInput(
        field,
        `cannot be set aside yet: ${refused}. ${capital(kind.todo)}; ${what} is sent again then, and only if the SFS still refuses it with the merchant data stored after ${what} was created can it be set aside (ADR 0711)`,
      );
    }
  }

  #find(target: Target): QueueEntry {
    const { subject } = target;
    if (subject.kind === 'document') {
      const item = this.deps.index.findDocument({ by: 'documentNo', documentNo: subject.documentNo });
      if (item) return { kind: 'document', recordNo: item.recordNo, item };
    } else {
      const item = this.deps.index.findLocation(subject.locationNo);
      if (item) return { kind: 'location', recordNo: item.recordNo, item };
    }
    throw new FiscalError('NOT_FOUND', `${target.name} does not exist.`);
  }

  #answer(entry: QueueEntry): SetAsideResponse {
    if (entry.kind === 'document') {
      const view = merchantViewOf(this.deps, entry.item.document.merchantRecordNo);
      return {
        resultCode: 0,
        document: { ...toApiDocument(entry.item, view), status: offlineStatus(entry) },
      };
    }
    const view = merchantViewOf(this.deps, entry.item.location.merchantRecordNo);
    return { resultCode: 0, location: toApiLocation(entry.item, view) };
  }
}

interface Target {
  subject: SendSubject;
  field: 'internalDocumentId' | 'locationInternalId';
  name: string;
}

function readTarget(input: SetAsideInput): Target {
  const doc = readId(input.internalDocumentId, 'internalDocumentId');
  const loc = readId(input.locationInternalId, 'locationInternalId');
  if ((doc === undefined) === (loc === undefined)) {
    throw invalidInput('internalDocumentId', 'give exactly one of internalDocumentId and locationInternalId');
  }
  return doc !== undefined
    ? { subject: { kind: 'document', documentNo: doc }, field: 'internalDocumentId', name: `Document ${doc}` }
    : {
        subject: { kind: 'location', locationNo: loc! },
        field: 'locationInternalId',
        name: `Location ${loc}`,
      };
}

function readId(value: unknown, field: string): number | undefined {
  if (isAbsent(value)) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 2_147_483_647) {
    throw invalidInput(field, 'must be a whole number from 1');
  }
  return value;
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * Only what the SFS rejected may be set aside: a stuck item, or one held by a refusal of the whole
 * register (ADR 0711; which of those qualify is decided by the code, see `#assertNotTheRegister`).
 * Anything else is a 701 saying why — an item that waits behind a hold names the hold.
 */
function assertRejected(entry: QueueEntry, field: string, hold: RegisterHold | undefined): void {
  const { sendState, lastExchange } = entry.item;
  const what = entry.kind === 'document' ? 'the document' : 'the location';
  if (sendState === 'stuck') return;
  if (sendState === 'unsent' && lastExchange?.outcome === 'rejected' && lastExchange.registerRefused) return;
  if (sendState === 'unsent' && hold !== undefined) {
    throw invalidInput(
      field,
      `${what} was not rejected by the SFS: it waits in the queue behind the SFS's refusal of the register (${hold.code}: ${sfsTextInSentence(hold.text)}) — ${hold.kind.cause}. ${capital(hold.kind.todo)}; ${what} is fine and is sent then. Only an item the SFS rejected can be set aside`,
    );
  }
  const why: Record<string, string> = {
    online: `${what} is registered with the SFS: there is nothing to set aside`,
    'offline-sent': `${what} is registered with the SFS: there is nothing to set aside`,
    'not-sent': `${what} is not sent by law (Act 384/2025): there is nothing to set aside`,
    'set-aside': `${what} is already set aside`,
    unsent: `${what} was not rejected by the SFS: it waits for the SFS to answer and the register sends it; only a rejected item can be set aside`,
  };
  throw invalidInput(field, why[sendState] ?? `${what} cannot be set aside`);
}
