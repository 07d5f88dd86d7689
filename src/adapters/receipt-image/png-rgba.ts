import { PNG } from 'pngjs';

/** An RGBA bitmap, 4 bytes per pixel, rows top to bottom. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Decodes a PNG (e.g. the stored logo) into RGBA, transparency flattened onto white paper. */
export function decodePngRgba(png: Uint8Array): RgbaImage {
  const image = PNG.sync.read(Buffer.from(png));
  const data = new Uint8Array(image.data.length);
  for (let i = 0; i < data.length; i += 4) {
    const alpha = image.data[i + 3] ?? 255;
    for (let c = 0; c < 3; c++) {
      const v = image.data[i + c] ?? 255;
      data[i + c] = Math.round((v * alpha + 255 * (255 - alpha)) / 255);
    }
    data[i + 3] = 255;
  }
  return { width: image.width, height: image.height, data };
}
