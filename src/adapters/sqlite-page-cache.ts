import type Database from 'better-sqlite3';

/**
 * How much of each kasa database SQLite may keep in memory per connection (ADR 1112).
 *
 * better-sqlite3 builds SQLite with a 16 MiB page cache per connection (`DEFAULT_CACHE_SIZE=-16000`).
 * A connection's cache only fills as its file grows, so `kasa serve` grew by up to 16 MiB per
 * database over months of receipts (capability 13, figure 6: the RSS after 100,000 stores). The
 * look-ups and the store path touch the upper levels of a few B-trees and one leaf each; leaves
 * of a big index come from the operating system's file cache whatever this size is.
 */
export const PAGE_CACHE_KIB = {
  /** The journal index: its B-trees' upper levels for 1,000,000 documents fit with room. */
  journalIndex: 4096,
  /** The SFS simulator's memory of registered receipts. */
  simulatorMemory: 2048,
  /** QR payment intents: a few rows a day. */
  paymentIntents: 1024,
} as const;

/** Sets the connection's page cache to `kib` KiB (a negative `cache_size` is KiB in SQLite). */
export function boundPageCache(db: Database.Database, kib: number): void {
  db.pragma(`cache_size = -${kib}`);
}
