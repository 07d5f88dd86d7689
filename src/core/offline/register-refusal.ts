import { FiscalError } from '../fiscal-error.js';
import type { QueueEntry } from '../ports/indexed-records.js';
import type { SendQueueIndex } from '../ports/send-queue-index.js';
import type { ResultName } from '../result-codes.js';
import { formatApiDateTime, parseSfsDateTime } from '../time.js';
import { handedOver } from './fix-document.js';

/** What a register-wide SFS code means for the shop, and what clears it. */
export interface RegisterRefusalKind {
  /** The result code status names the cause with. */
  resultName: ResultName;
  /** The cause in words. */
  cause: string;
  /** What the shop does about it. */
  todo: string;
}

const RENEW =
  'load valid authentication data (a renewed certificate, from the eKasa zone of the Financial Administration portal) with POST /api/merchant/store';
const MATCHING =
  'store identification and authentication data that belong together with POST /api/merchant/store';

/**
 * SFS codes that concern the whole register — its certificate, identity or interface version —
 * not the one message they answer (protocol reference §1.6). Every message the register sends
 * meets the same answer until the cause is cleared, so a resend that gets one of these leaves the
 * item queued, ends the batch and holds the sender (ADR 0711) instead of marking every item stuck.
 */
export const REGISTER_REFUSALS: ReadonlyMap<number, RegisterRefusalKind> = new Map([
  [
    -8,
    {
      resultName: 'SFS_COMMUNICATION_ERROR',
      cause: 'the SFS no longer supports the interface version kasa speaks',
      todo: 'update kasa to a version for the current SFS interface',
    },
  ],
  [
    -10,
    {
      resultName: 'MERCHANT_CERTIFICATE_ERROR',
      cause: "the SFS cannot verify the messages signed with this register's key",
      todo: RENEW,
    },
  ],
  [
    -12,
    {
      resultName: 'MERCHANT_CERTIFICATE_ERROR',
      cause: "the SFS does not accept the format of this register's certificate",
      todo: RENEW,
    },
  ],
  [
    -13,
    {
      resultName: 'MERCHANT_CERTIFICATE_ERROR',
      cause: "the SFS does not accept this register's certificate as valid",
      todo: RENEW,
    },
  ],
  [
    -101,
    {
      resultName: 'MERCHANT_WRONG_FORMAT',
      cause: 'the DIČ in the messages differs from the DIČ in the certificate',
      todo: MATCHING,
    },
  ],
  [
    -102,
    {
      resultName: 'MERCHANT_WRONG_FORMAT',
      cause: 'the register code in the messages differs from the one in the certificate',
      todo: MATCHING,
    },
  ],
]);

/** The register-wide meaning of an SFS code, or undefined for a code about one message. */
export function registerRefusalKind(code: number | undefined): RegisterRefusalKind | undefined {
  return code === undefined ? undefined : REGISTER_REFUSALS.get(code);
}

/**
 * Whether an item the SFS refused with a register-wide code may be set aside for the tax office once
 * the refusal persists after a `merchant/store` (ADR 0711): the identity codes (−101, −102) always;
 * the certificate codes (−10, −12, −13) for a document the customer already holds, whose PKP can only
 * be sent as it was signed (ADR 0712) — a repair cannot sign it again with the renewed key. The
 * interface code (−8) never: updating kasa clears it.
 */
export function setAsideOncePersisting(entry: QueueEntry, code: number): boolean {
  if (code === -101 || code === -102) return true;
  return (
    (code === -10 || code === -12 || code === -13) && entry.kind === 'document' && handedOver(entry.item)
  );
}

/** The sender holds: the oldest queued item was last refused for the whole register. */
export interface RegisterHold {
  entry: QueueEntry;
  code: number;
  text: string;
  /** When the SFS said so (the attempt's RequestDate). */
  since: Date | undefined;
  kind: RegisterRefusalKind;
}

/**
 * Whether the SFS refuses the register now, as the CHDÚ shows it: the sender always tries the
 * oldest queued item first and stops at a register-wide refusal, so that item's last exchange
 * says it (one indexed read). An empty queue — the usual state, asked by every status answer and
 * the event watcher's look after a store — is told by the state index alone, without reading or
 * converting a row (ADR 1113).
 */
export function registerHold(
  index: Pick<SendQueueIndex, 'sendQueue' | 'hasUnsent'>,
): RegisterHold | undefined {
  if (!index.hasUnsent()) return undefined;
  const entry = index.sendQueue(1)[0];
  const x = entry?.item.lastExchange;
  if (!entry || x?.outcome !== 'rejected' || x.registerRefused !== true) return undefined;
  const kind = registerRefusalKind(x.errorCode);
  if (!kind || x.errorCode === undefined) return undefined;
  return { entry, code: x.errorCode, text: x.errorText ?? '', since: parseSfsDateTime(x.requestDate), kind };
}

/** The hold in one sentence, for status and logs. */
export function describeHold(hold: RegisterHold, waiting: number): string {
  const since = hold.since ? ` since ${formatApiDateTime(hold.since)}` : '';
  return `The SFS refuses this register${since} (${hold.code}: ${hold.text}): ${hold.kind.cause}. ${waiting} item(s) wait, none is lost; ${hold.kind.todo}. Sending resumes at once after that.`;
}

/** For the overall status: a register the SFS refuses cannot have documents registered. */
export function registerHoldRefusal(
  index: Pick<SendQueueIndex, 'sendQueue' | 'hasUnsent' | 'queueSummary'>,
): FiscalError | undefined {
  const hold = registerHold(index);
  if (!hold) return undefined;
  const s = index.queueSummary();
  return new FiscalError(hold.kind.resultName, describeHold(hold, s.unsentDocuments + s.unsentLocations), {
    ekasaError: { errorType: 'EKASA', errorCode: hold.code, message: hold.text, detail: hold.kind.cause },
  });
}
