import type { SfsReceiptRequest } from '../../core/sfs/message.js';
import { localParts, parseSfsDateTime } from '../../core/time.js';
import type { SimMemory } from './sim-memory.js';

export type Registration =
  | { kind: 'new'; id: string }
  | { kind: 'repeat'; id: string }
  | { kind: 'conflict'; detail: string };

/**
 * The documents the simulated SFS has registered. The same document (same PKP, same data) sent
 * again gets the same Id: that is how a register recovers a lost response. A different document
 * under a PKP or a receipt number already taken in that month is a conflict (ADR 0307).
 */
export class SfsRegistry {
  readonly #certificates = new Map<string, Set<string>>();

  /** Registered receipts and receipt numbers live in `memory` (on disk, issue 13). */
  constructor(private readonly memory: SimMemory) {}

  register(request: SfsReceiptRequest, newId: () => string): Registration {
    const fingerprint = JSON.stringify([request.data, request.pkp, request.okp.toLowerCase()]);
    const known = this.memory.receipt(request.pkp, fingerprint);
    if (known) {
      return known.same
        ? { kind: 'repeat', id: known.id }
        : { kind: 'conflict', detail: 'a different document with this PKP is already registered' };
    }
    const key = numberKey(request);
    if (this.memory.numberTaken(key)) {
      return {
        kind: 'conflict',
        detail: `receipt number ${request.data.ReceiptNumber} is already registered this month`,
      };
    }
    const id = newId();
    this.memory.addReceipt(request.pkp, id, fingerprint, key);
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
