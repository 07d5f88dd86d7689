import { crc32 } from 'node:zlib';

/** The picture formats an upload may be in (ADR 0509). */
export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';

/**
 * Whether `bytes` are a whole picture file of a format kasa takes (the ones the bundled Skia
 * decodes: BMP is not among them, so it is refused here rather than failing later), checked on the file's own
 * structure before any decoder reads the size from its header: a PNG signature followed by noise
 * has a "header" that claims any size, and the answer must then be "not a readable image", not
 * "too large". PNG is walked chunk by chunk with every CRC (PNG spec §5.3: IHDR first, IDAT, IEND
 * last); the other formats are checked for their start and end markers and declared lengths.
 * Returns the format, or undefined when the bytes are not such a file.
 */
export function imageContainerOf(bytes: Uint8Array): ImageFormat | undefined {
  if (startsWith(bytes, PNG_SIGNATURE)) return pngIsWhole(bytes) ? 'png' : undefined;
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return jpegIsWhole(bytes) ? 'jpeg' : undefined;
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) {
    // GIF89a §27: the stream ends with the trailer 0x3B; the logical screen is 7 bytes.
    return bytes.length > 13 && bytes[bytes.length - 1] === 0x3b ? 'gif' : undefined;
  }
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes.subarray(8), ascii('WEBP'))) {
    // RIFF: the size after the first 8 bytes, padded to even.
    const size = u32le(bytes, 4);
    return size + 8 <= bytes.length && size + 8 >= bytes.length - 1 && size >= 12 ? 'webp' : undefined;
  }
  return undefined;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function pngIsWhole(bytes: Uint8Array): boolean {
  let at = 8;
  let first = true;
  let sawData = false;
  while (at + 12 <= bytes.length) {
    const length = u32be(bytes, at);
    const end = at + 12 + length;
    if (length > 0x7fffffff || end > bytes.length) return false;
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    const crc = u32be(bytes, at + 8 + length);
    if (crc32(bytes.subarray(at + 4, at + 8 + length)) !== crc) return false;
    if (first) {
      // IHDR: 13 bytes; width and height 1..2^31-1; a bit depth and colour type PNG defines.
      if (type !== 'IHDR' || length !== 13) return false;
      const w = u32be(bytes, at + 8);
      const h = u32be(bytes, at + 12);
      const depth = bytes[at + 16] ?? 0;
      const colour = bytes[at + 17] ?? 255;
      if (w < 1 || h < 1 || w > 0x7fffffff || h > 0x7fffffff) return false;
      if (![1, 2, 4, 8, 16].includes(depth) || ![0, 2, 3, 4, 6].includes(colour)) return false;
      first = false;
    }
    if (type === 'IDAT') sawData = true;
    if (type === 'IEND') return sawData;
    at = end;
  }
  return false;
}

/** JPEG: SOI, a start-of-frame segment somewhere, EOI at the end (trailing padding tolerated). */
function jpegIsWhole(bytes: Uint8Array): boolean {
  let end = bytes.length;
  while (end > 4 && bytes[end - 1] !== 0xd9) end--;
  if (bytes[end - 2] !== 0xff || bytes[end - 1] !== 0xd9 || bytes.length - end > 64) return false;
  let at = 2;
  while (at + 4 <= end) {
    if (bytes[at] !== 0xff) return false;
    const marker = bytes[at + 1] ?? 0;
    if (marker === 0xff) {
      at++;
      continue;
    }
    // SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC): the frame header, with the size.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return true;
    }
    if (marker === 0xda) return false; // scan data before any frame header
    at += 2 + (((bytes[at + 2] ?? 0) << 8) | (bytes[at + 3] ?? 0));
  }
  return false;
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((b, i) => bytes[i] === b);
}

function ascii(text: string): number[] {
  return Array.from(text, (c) => c.charCodeAt(0));
}

function u32be(b: Uint8Array, at: number): number {
  return (((b[at] ?? 0) << 24) | ((b[at + 1] ?? 0) << 16) | ((b[at + 2] ?? 0) << 8) | (b[at + 3] ?? 0)) >>> 0;
}

function u32le(b: Uint8Array, at: number): number {
  return ((b[at] ?? 0) | ((b[at + 1] ?? 0) << 8) | ((b[at + 2] ?? 0) << 16) | ((b[at + 3] ?? 0) << 24)) >>> 0;
}
