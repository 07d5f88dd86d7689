/** What a send attempt is about. */
export type SendSubject = { kind: 'document'; documentNo: number } | { kind: 'location'; locationNo: number };

export const subjectKey = (s: SendSubject): string =>
  s.kind === 'document' ? `d${s.documentNo}` : `l${s.locationNo}`;

/**
 * Documents and locations with a send attempt in flight right now. A request that sends its own
 * document (the first attempt of a store, a repair, a location update) claims it before writing
 * it, and the background sender skips what is claimed, so no item is ever sent twice at once
 * (capability 10: one request in flight per item, "nothing sent twice").
 */
export class SendClaims {
  readonly #held = new Set<string>();

  /** Claims the subject; returns the release function, or undefined when it is already claimed. */
  claim(subject: SendSubject): (() => void) | undefined {
    const key = subjectKey(subject);
    if (this.#held.has(key)) return undefined;
    this.#held.add(key);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#held.delete(key);
    };
  }

  isClaimed(subject: SendSubject): boolean {
    return this.#held.has(subjectKey(subject));
  }

  get size(): number {
    return this.#held.size;
  }
}
