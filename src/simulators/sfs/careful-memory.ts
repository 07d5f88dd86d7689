import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import type { SimMemory } from './sim-memory.js';

/** A register's identity data as far as a receipt carries them. */
export interface MerchantIdentity {
  cashRegisterCode: string;
  ico?: string | undefined;
  icDph?: string | undefined;
}

/** The comparable text of an Ico/IcDph pair (either may be absent). */
export const identityText = (ico: string | undefined, icDph: string | undefined) =>
  JSON.stringify([ico, icDph]);

/** How many identity pairs the `merchant-identity` check remembers in all (the oldest go first). */
export const IDENTITY_LIMIT = 10_000;

export interface CarefulMemoryOptions {
  /**
   * Where the accepted Uuids are kept: the simulator's SQLite memory (ADR 1102), beside the receipts
   * it registered — on disk, so the process' memory stays flat and no Uuid is ever forgotten.
   */
  uuids: Pick<SimMemory, 'rememberUuid' | 'uuidHeldByOther' | 'clearUuids'>;
  /**
   * A JSON file that keeps the identities the simulator learnt (registered with it, or on receipts
   * it accepted) across restarts: the real SFS never forgets a register's identity data, so a
   * restarted simulator must not either (ADR 0422). Absent: kept in memory only.
   */
  identitiesFile?: string;
}

const fileSchema = z.object({
  identities: z.array(
    z.object({
      cashRegisterCode: z.string(),
      ico: z.string().optional(),
      icDph: z.string().optional(),
    }),
  ),
});

/**
 * What the careful checks remember between requests (ADR 0422). Per accepted Uuid a SHA-256 of the
 * message it carried, in the simulator's SQLite memory (ADR 1102): not in the process' memory, kept
 * across restarts like the receipts registered, and never forgotten — a Uuid reused however long
 * after is recognised, as the SFS would. At most {@link IDENTITY_LIMIT} identity pairs, in memory
 * and, when a file is given, persisted there. `clear` forgets both, the file included.
 */
export class CarefulMemory {
  readonly #uuids: CarefulMemoryOptions['uuids'];
  readonly #identities = new Map<string, Set<string>>();
  readonly #file: string | undefined;
  #identityCount = 0;

  constructor(options: CarefulMemoryOptions) {
    this.#uuids = options.uuids;
    this.#file = options.identitiesFile;
    if (this.#file !== undefined && existsSync(this.#file)) {
      let stored: z.infer<typeof fileSchema>;
      try {
        stored = fileSchema.parse(JSON.parse(readFileSync(this.#file, 'utf8')));
      } catch (e) {
        throw new Error(
          `${this.#file} is not the simulator's identity list (${(e as Error).message.split('\n')[0]}); remove it to start without the identities learnt`,
        );
      }
      for (const identity of stored.identities) this.#add(identity);
    }
  }

  /** After a message was accepted: its Uuid now stands for this message (by a hash of it). */
  rememberUuid(uuid: string, fingerprint: string): void {
    this.#uuids.rememberUuid(uuid, fingerprint);
  }

  /** Whether this Uuid was accepted for another message than the one `fingerprint` describes. */
  heldByOther(uuid: string, fingerprint: string): boolean {
    return this.#uuids.uuidHeldByOther(uuid, fingerprint);
  }

  /** An identity the register holds: issued (registered) or seen on an accepted receipt. */
  rememberIdentity(identity: MerchantIdentity): void {
    if (this.#add(identity)) this.#save();
  }

  identitiesOf(cashRegisterCode: string): ReadonlySet<string> {
    return this.#identities.get(cashRegisterCode) ?? new Set();
  }

  clear(): void {
    this.#uuids.clearUuids();
    this.#identities.clear();
    this.#identityCount = 0;
    this.#save();
  }

  #add(identity: MerchantIdentity): boolean {
    const text = identityText(identity.ico, identity.icDph);
    if (this.#identities.get(identity.cashRegisterCode)?.has(text)) return false;
    if (this.#identityCount >= IDENTITY_LIMIT) {
      const [oldest, pairs] = this.#identities.entries().next().value!;
      this.#identities.delete(oldest);
      this.#identityCount -= pairs.size;
    }
    const set = this.#identities.get(identity.cashRegisterCode) ?? new Set<string>();
    set.add(text);
    this.#identityCount += 1;
    this.#identities.set(identity.cashRegisterCode, set);
    return true;
  }

  /** Written whole (a few hundred KB at the limit) to a temporary file, then renamed over the old one. */
  #save(): void {
    if (this.#file === undefined) return;
    const identities = [...this.#identities].flatMap(([cashRegisterCode, pairs]) =>
      [...pairs].map((text) => {
        const [ico, icDph] = JSON.parse(text) as [string | null, string | null];
        return {
          cashRegisterCode,
          ...(ico === null ? {} : { ico }),
          ...(icDph === null ? {} : { icDph }),
        };
      }),
    );
    const temporary = `${this.#file}.tmp`;
    writeFileSync(temporary, `${JSON.stringify({ identities }, null, 1)}\n`);
    renameSync(temporary, this.#file);
  }
}
