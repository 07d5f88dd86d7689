import type { SfsReceiptRequest } from '../../core/sfs/message.js';
import { localParts, parseSfsDateTime } from '../../core/time.js';
import type { SimMemory } from './sim-memory.js';

export type Registration =
  | { kind: 'new'; id: string }
  | { kind: 'repeat'; id: string }
  | { kind: 'conflict'; detail: string };

/**
 * The documents the simulated SFS has registered. The same document (same PKP, OKP and data) sent
 * again as a resend (SendingCount > 1) gets the Id it got the first time: that is how a register
 * recovers a lost response (ADR 0307, ADR 0706); so does the very same message again (same
 * Uuid). The same document in a new first attempt (another Uuid, SendingCount 1) breaks the
 * resend rules and is refused; so is a different document under a
 * PKP or a receipt number already taken in that month.
 */
export class SfsRegistry {
  readonly #certificates = new Map<string, Set<string>>();

  /** Registered receipts and receipt numbers live in `memory` (on disk, capability 13). */
  constructor(private readonly memory: SimMemory) {}

  register(request: SfsReceiptRequest, newId: () => string): Registration {
    const fingerprint = JSON.stringify([request.data, request.pkp, request.okp.toLowerCase()]);
    const known = this.memory.receipt(request.pkp, fingerprint);
    if (known) {
      if (!known.same)
        return { kind: 'conflict', detail: 'a different document with this PKP is already registered' };
      // The very same message again (same Uuid: a transport retry) is the same request; a new
      // attempt of a registered document must say it is a resend.
      return request.header.SendingCount === '1' && request.header.Uuid !== known.uuid
        ? {
            kind: 'conflict',
            detail: 'this document is already registered; a resend must carry SendingCount greater than 1',
          }
        : { kind: 'repeat', id: known.id };
    }
    const key = numberKey(request);
    if (this.memory.numberTaken(key)) {
      return {
        kind: 'conflict',
        detail: `receipt number ${request.data.ReceiptNumber} is already registered this month`,
      };
    }
    const id = newId();
    this.memory.addReceipt(request.pkp, id, fingerprint, key, request.header.Uuid);
    return { kind: 'new', id };
  }

  /** Certificates (DER, base64) seen on accepted messages of a register: PKPs made with an older one still verify. */
  rememberCertificate(registerCode: string, der: Buffer): void {
    const set = this.#certificates.get(registerCode) ?? new Set<string>();
    set.add(der.toString('base64'));
    this.#certificates.set(registerCode, set);
  }

  certificatesOf(registerCode: string): Buffer[] {
    return [...(this.#certificates.get(registerCode) ?? [])].map((b64) => Buffer.from(b64, 'base64'));
  }

  /** Forgets everything: the receipts and numbers in the memory, the certificates here. */
  clear(): void {
    this.memory.clear();
    this.#certificates.clear();
  }
}

/** Receipt numbers run per register and calendar month of CreateDate, Bratislava time (spec §3.3.12.7). */
function numberKey(request: SfsReceiptRequest): string {
  const created = localParts(parseSfsDateTime(request.data.CreateDate)!);
  const { Dic, CashRegisterCode, ReceiptNumber } = request.data;
  return `${Dic}|${CashRegisterCode}|${created.year}-${created.month}|${ReceiptNumber}`;
}
