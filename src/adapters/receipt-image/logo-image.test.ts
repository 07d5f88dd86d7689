import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { FiscalError } from '../../core/fiscal-error.js';
import { imageContainerOf } from './image-container.js';
import { LOGO_MAX_SOURCE_PIXELS, normalizeLogo } from './logo-image.js';

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A structurally whole PNG (every CRC right) whose header claims `width` × `height`. */
function pngClaiming(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(1024))),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

function messageOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (FiscalError.is(e) && e.resultCode === 701) return e.message;
    throw e;
  }
  throw new Error('no error');
}

function drawn(mime: 'image/png' | 'image/jpeg' | 'image/webp'): Buffer {
  const c = createCanvas(40, 20);
  const ctx = c.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, 40, 20);
  ctx.fillStyle = '#c00';
  ctx.fillRect(5, 5, 30, 10);
  return mime === 'image/png' ? c.toBuffer('image/png') : c.toBuffer(mime, 90);
}

/** A 1×1 black GIF89a (global colour table of two entries, one LZW-coded pixel). */
const GIF = Buffer.from('47494638396101000100800000000000ffffff2c00000000010001000002024401003b', 'hex');

describe('logo uploads: readable first, then not too large (ADR 0509)', () => {
  it('a PNG signature followed by noise is "not a readable image", never "larger than"', () => {
    for (let i = 0; i < 20; i++) {
      const bytes = Buffer.concat([pngClaiming(1, 1).subarray(0, 8), randomBytes(4000)]);
      const message = messageOf(() => normalizeLogo(bytes, 576));
      expect(message).toContain('imageData');
      expect(message).toContain('not a readable image');
      expect(message).not.toContain('larger than');
    }
  });

  it('a whole PNG whose header is really that large is refused as too large', () => {
    const message = messageOf(() => normalizeLogo(pngClaiming(100_000, 100_000), 576));
    expect(message).toContain(`larger than ${LOGO_MAX_SOURCE_PIXELS} pixels`);
  });

  it('a PNG cut short or with a wrong CRC is not readable', () => {
    const whole = drawn('image/png');
    expect(imageContainerOf(whole)).toBe('png');
    expect(imageContainerOf(whole.subarray(0, whole.length - 12))).toBeUndefined();
    const bent = Buffer.from(whole);
    bent[20] = (bent[20] ?? 0) ^ 0xff; // inside IHDR: its CRC no longer matches
    expect(imageContainerOf(bent)).toBeUndefined();
  });

  it('PNG, JPEG, WebP and GIF files pass and decode; BMP (which Skia does not read) is refused', () => {
    const files: Array<[string, Buffer]> = [
      ['png', drawn('image/png')],
      ['jpeg', drawn('image/jpeg')],
      ['webp', drawn('image/webp')],
      ['gif', GIF],
    ];
    for (const [format, bytes] of files) {
      expect(imageContainerOf(bytes), format).toBe(format);
      const logo = normalizeLogo(bytes, 576);
      expect(logo.width, format).toBeGreaterThan(0);
    }
    const bmp = Buffer.alloc(70);
    bmp.write('BM', 0, 'ascii');
    expect(messageOf(() => normalizeLogo(bmp, 576))).toContain('not a readable image');
  });

  it('noise behind any other signature is not readable', () => {
    for (const head of ['GIF89a', 'RIFF\x10\x00\x00\x00WEBP']) {
      const bytes = Buffer.concat([Buffer.from(head, 'latin1'), randomBytes(300)]);
      bytes[bytes.length - 1] = 0x00; // never the GIF trailer by chance
      expect(messageOf(() => normalizeLogo(bytes, 576))).toContain('not a readable image');
    }
    expect(messageOf(() => normalizeLogo(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]), 576))).toContain(
      'not a readable image',
    );
  });
});
