import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GlobalFonts } from '@napi-rs/canvas';

/** The two faces a receipt uses. */
export interface ReceiptFontFiles {
  regular: string;
  bold: string;
}

/** The fonts shipped in the repository (DejaVu Sans Mono 2.37, licence beside them). */
export const SHIPPED_FONT_DIR = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  '..',
  'assets',
  'fonts',
);

/** Debian/Ubuntu `fonts-dejavu-core`. */
export const SYSTEM_FONT_DIR = '/usr/share/fonts/truetype/dejavu';

/**
 * Where the receipt fonts come from, first match wins: an explicit folder, the repository's
 * `assets/fonts/`, the system's DejaVu folder. Receipts must look the same on every machine, so the
 * shipped copy comes before the system one; a folder counts only with both faces in it.
 */
export function resolveReceiptFonts(
  explicitDir?: string,
  exists: (path: string) => boolean = existsSync,
): ReceiptFontFiles {
  const dirs = [explicitDir, SHIPPED_FONT_DIR, SYSTEM_FONT_DIR].filter((d): d is string => d !== undefined);
  for (const dir of dirs) {
    const files = { regular: join(dir, 'DejaVuSansMono.ttf'), bold: join(dir, 'DejaVuSansMono-Bold.ttf') };
    if (exists(files.regular) && exists(files.bold)) return files;
  }
  throw new Error(
    `receipt font DejaVuSansMono.ttf + DejaVuSansMono-Bold.ttf not found in: ${dirs.join(', ')}`,
  );
}

/**
 * Registers both faces under one family name derived from their paths and returns it. The name is
 * stable, so registering again (a second renderer) is a no-op rather than a duplicate.
 */
export function registerReceiptFonts(files: ReceiptFontFiles): string {
  const family = `KasaReceiptMono-${createHash('sha256').update(`${files.regular}\n${files.bold}`).digest('hex').slice(0, 12)}`;
  if (!GlobalFonts.has(family)) {
    for (const path of [files.regular, files.bold]) {
      if (GlobalFonts.registerFromPath(path, family) === null) throw new Error(`cannot load font ${path}`);
    }
  }
  return family;
}
