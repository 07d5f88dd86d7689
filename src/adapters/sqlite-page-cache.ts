import type Database from 'better-sqlite3';

/**
 * How much of each kasa database SQLite may keep in memory per connection (ADR 1112).
 *
 * better-sqlite3 builds SQLite with a 16 MiB page cache per connection (`DEFAULT_CACHE_SIZE=-16000`).
 * A connection's cache only fills as its file grows, so `kasa serve` grew by up to 16 MiB per
 * database over months of receipts (capability 13, figure 6: the RSS after 100,000 stores). The
 * look-ups and the store path walk a few B-trees from their roots; the pages below the top levels
 * of a big index come from the operating system's file cache, one read each, whatever this size.
 */
export const PAGE_CACHE_KIB = {
  /**
   * The journal index: the top levels of its B-trees stay in memory; at 1,000,000 documents the
   * index outgrows 16 MiB as well, and deeper pages come from the file cache either way (figure 2).
   */
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
