import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { z } from 'zod';

/** A register's identity data as far as a receipt carries them. */
export interface MerchantIdentity {
  cashRegisterCode: string;
  ico?: string | undefined;
  icDph?: string | undefined;
}

/** The comparable text of an Ico/IcDph pair (either may be absent). */
export const identityText = (ico: string | undefined, icDph: string | undefined) =>
  JSON.stringify([ico, icDph]);

/** How many accepted Uuids the `uuid-reuse` check remembers by default (the oldest go first). */
export const DEFAULT_UUID_LIMIT = 100_000;
/** How many identity pairs the `merchant-identity` check remembers in all (the oldest go first). */
export const IDENTITY_LIMIT = 10_000;

export interface CarefulMemoryOptions {
  /** Accepted Uuids kept (default {@link DEFAULT_UUID_LIMIT}). */
  uuidLimit?: number;
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
 * What the careful checks remember between requests (ADR 0422). Bounded: per accepted Uuid only a
 * SHA-256 of the message it carried, at most `uuidLimit` of them (a Uuid older than that is no
 * longer recognised as reused); at most {@link IDENTITY_LIMIT} identity pairs. Identities are
 * persisted when a file is given; Uuids are not (a restarted SFS simulator has also forgotten the
 * documents it registered). `clear` forgets both, the file included.
 */
export class CarefulMemory {
  readonly #uuids = new Map<string, string>();
  readonly #identities = new Map<string, Set<string>>();
  readonly #uuidLimit: number;
  readonly #file: string | undefined;
  #identityCount = 0;

  constructor(options: CarefulMemoryOptions = {}) {
    this.#uuidLimit = options.uuidLimit ?? DEFAULT_UUID_LIMIT;
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
    const key = uuid.toLowerCase();
    this.#uuids.delete(key);
    this.#uuids.set(key, fingerprintHash(fingerprint));
    if (this.#uuids.size > this.#uuidLimit) this.#uuids.delete(this.#uuids.keys().next().value!);
  }

  /** Whether this Uuid was accepted for another message than the one `fingerprint` describes. */
  heldByOther(uuid: string, fingerprint: string): boolean {
    const held = this.#uuids.get(uuid.toLowerCase());
    return held !== undefined && held !== fingerprintHash(fingerprint);
  }

  /** An identity the register holds: issued (registered) or seen on an accepted receipt. */
  rememberIdentity(identity: MerchantIdentity): void {
    if (this.#add(identity)) this.#save();
  }

  identitiesOf(cashRegisterCode: string): ReadonlySet<string> {
    return this.#identities.get(cashRegisterCode) ?? new Set();
  }

  clear(): void {
    this.#uuids.clear();
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

function fingerprintHash(fingerprint: string): string {
  return createHash('sha256').update(fingerprint, 'utf8').digest('base64');
}
