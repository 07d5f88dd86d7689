import { z } from 'zod';

/** Format name and version of a kasa backup archive (ADR 0804). */
export const BACKUP_FORMAT = 'kasa-backup';
export const BACKUP_FORMAT_VERSION = 1;
/** The manifest is the archive's last entry: it is written once every hash is known. */
export const MANIFEST_ENTRY = 'kasa-backup.json';
/** The CHDÚ image inside the archive. */
export const IMAGE_ENTRY = 'chdu.img';
/** Other files of the data dir go under this folder inside the archive. */
export const FILES_PREFIX = 'files/';

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);
const RelativePath = z
  .string()
  .min(1)
  .max(250)
  .refine(
    (p) => !p.startsWith('/') && !p.split('/').some((part) => part === '' || part === '.' || part === '..'),
    {
      message: 'must be a plain relative path',
    },
  );

export const BackupManifest = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.literal(BACKUP_FORMAT_VERSION),
  createdAt: z.iso.datetime(),
  kasaVersion: z.string(),
  source: z.object({ dataDir: z.string(), chdu: z.string() }),
  /** The backup's point: the journal's last record in the copied image (recordNo 0 = empty). */
  point: z.object({
    recordNo: z.number().int().min(0),
    chainHash: z.string(),
    writtenAt: z.string().optional(),
  }),
  image: z.object({
    entry: z.literal(IMAGE_ENTRY),
    bytes: z.number().int().min(0),
    blocks: z.number().int().min(0),
    sha256: Sha256,
  }),
  files: z.array(
    z.object({
      path: RelativePath,
      bytes: z.number().int().min(0),
      sha256: Sha256,
      mode: z.number().int().min(0).max(0o7777),
    }),
  ),
});
export type BackupManifest = z.infer<typeof BackupManifest>;
