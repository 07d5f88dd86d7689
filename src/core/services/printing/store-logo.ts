import { base64ToBytes, bytesToBase64 } from '../../base64.js';
import { invalidInput } from '../../fiscal-error.js';
import type { Journal } from '../../ports/journal.js';
import type { JournalIndex } from '../../ports/journal-index.js';
import type { LogoImages } from '../../ports/logo-images.js';
import { assertNothingBlocks } from '../documents/issue-document.js';
import type { WriteLock } from '../write-lock.js';
import type { LogoSource } from './logo-source.js';

/** The logo's PNG, as Base64 in its journal record (ADR 0102 set it when a record was at most 64 KiB). */
export const LOGO_MAX_PNG_BYTES = 45_000;
/** An upload larger than this is refused before it is decoded (bounded work per request). */
export const LOGO_MAX_UPLOAD_BYTES = 5 * 1024 * 1024;

export interface StoreLogoDeps {
  journal: Journal;
  index: JournalIndex;
  lock: WriteLock;
  logo: LogoSource;
  images: LogoImages;
}

/**
 * `POST /api/image/store {imageData}` (ADR 0509): the picture is decoded, trimmed and scaled to
 * the paper, and written into the CHDÚ as a `logo` record; from then on it heads every paper and
 * electronic receipt. `null` writes a `logo` record without an image: no logo from then on.
 */
export class StoreLogo {
  constructor(private readonly deps: StoreLogoDeps) {}

  async execute(
    imageData: string | null,
  ): Promise<{ resultCode: 0; recordNo: number; width?: number; height?: number }> {
    const picture = imageData === null ? undefined : this.deps.images.normalize(decodeImageData(imageData));
    if (picture !== undefined && picture.png.length > LOGO_MAX_PNG_BYTES) {
      throw invalidInput(
        'imageData',
        `the logo is ${picture.png.length} bytes as PNG after scaling to the paper; at most ${LOGO_MAX_PNG_BYTES} fit the CHDÚ (use fewer colours or a simpler picture)`,
      );
    }
    return this.deps.lock.run('image/store', async () => {
      assertNothingBlocks(this.deps);
      const record = await this.deps.journal.append({
        type: 'logo',
        body: picture === undefined ? {} : { png: bytesToBase64(picture.png) },
      });
      this.deps.logo.set(picture?.png);
      return {
        resultCode: 0 as const,
        recordNo: record.recordNo,
        ...(picture === undefined ? {} : { width: picture.width, height: picture.height }),
      };
    });
  }
}

/** Base64 (or a `data:` URL) to bytes; 701 naming `imageData` otherwise. */
export function decodeImageData(imageData: string): Uint8Array {
  const text = imageData.startsWith('data:') ? imageData.slice(imageData.indexOf(',') + 1) : imageData;
  if (text.length > (LOGO_MAX_UPLOAD_BYTES * 4) / 3 + 4) {
    throw invalidInput('imageData', `at most ${LOGO_MAX_UPLOAD_BYTES} bytes of image`);
  }
  const bytes = base64ToBytes(text);
  if (bytes === undefined || bytes.length === 0)
    throw invalidInput('imageData', 'must be a Base64 image (PNG, JPEG, GIF or WebP)');
  return bytes;
}
