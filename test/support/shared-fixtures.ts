import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is test/support/shared-fixtures.ts). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The team's shared folder (`../shared` beside the repository, or `KASA_SHARED_DIR`). Tests that
 * need the official SFS data skip with {@link SHARED_MISSING} when it is absent; the data are never
 * copied into the repository.
 */
export const sharedDir = process.env.KASA_SHARED_DIR ?? resolve(repoRoot, '..', 'shared');

export const officialDir = join(sharedDir, 'fixtures', 'sfs-official');

export const hasOfficialFixtures = existsSync(officialDir);

export const SHARED_MISSING = `official SFS test data not found at ${officialDir} (set KASA_SHARED_DIR)`;

/** Path of a file under the official fixtures folder. */
export function official(...parts: string[]): string {
  return join(officialDir, ...parts);
}
