/** The time source of the fiscal core. Tests inject a fixed or stepping clock. */
export interface Clock {
  /** The current instant. */
  now(): Date;
}

/** Identifiers that must be unique: SFS request UUIDs (v4), request ids. */
export interface IdSource {
  /** A new random UUID v4 in lower case (SFS Header Uuid pattern accepts it). */
  uuid(): string;
}

export const systemClock: Clock = { now: () => new Date() };
