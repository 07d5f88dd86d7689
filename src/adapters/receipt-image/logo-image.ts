import { createCanvas, Image } from '@napi-rs/canvas';
import { invalidInput } from '../../core/fiscal-error.js';
import { imageContainerOf } from './image-container.js';
import { decodePngRgba, type RgbaImage } from './png-rgba.js';

/** Upper bound of a logo's decoded size: the work an upload can cause stays bounded. */
export const LOGO_MAX_SOURCE_PIXELS = 4096 * 4096;
/** A logo taller than this (after scaling) is cut: a receipt head, not a poster. */
export const LOGO_MAX_HEIGHT = 400;

/**
 * Decodes an uploaded image (PNG, JPEG, GIF or WebP: what the bundled Skia reads), flattens it onto
 * white, trims blank margins and scales it down to `maxWidth` dots: the colour logo kasa stores
 * and puts on electronic receipts. Anything that is not a readable image is 701 naming `imageData`.
 */
export function normalizeLogo(bytes: Uint8Array, maxWidth: number): RgbaImage {
  // The file's own structure first: a header alone (e.g. a PNG signature and noise) may claim any
  // size, and the honest answer is then "not readable", not "too large".
  if (imageContainerOf(bytes) === undefined) {
    throw invalidInput('imageData', 'is not a readable image (PNG, JPEG, GIF or WebP)');
  }
  const image = new Image();
  try {
    image.src = Buffer.from(bytes);
  } catch {
    throw invalidInput('imageData', 'is not a readable image (PNG, JPEG, GIF or WebP)');
  }
  if (!image.complete || image.width < 1 || image.height < 1) {
    throw invalidInput('imageData', 'is not a readable image (PNG, JPEG, GIF or WebP)');
  }
  if (image.width * image.height > LOGO_MAX_SOURCE_PIXELS) {
    throw invalidInput('imageData', `is larger than ${LOGO_MAX_SOURCE_PIXELS} pixels`);
  }
  const source = createCanvas(image.width, image.height);
  const sctx = source.getContext('2d');
  sctx.fillStyle = '#ffffff';
  sctx.fillRect(0, 0, image.width, image.height);
  sctx.drawImage(image, 0, 0);
  const rgba: RgbaImage = {
    width: image.width,
    height: image.height,
    data: new Uint8Array(sctx.getImageData(0, 0, image.width, image.height).data),
  };
  const box = inkBox(rgba);
  if (box === undefined) throw invalidInput('imageData', 'is blank: nothing would be printed');
  const scale = Math.min(1, maxWidth / box.w, LOGO_MAX_HEIGHT / box.h);
  const w = Math.max(1, Math.round(box.w * scale));
  const h = Math.max(1, Math.round(box.h * scale));
  const out = createCanvas(w, h);
  const octx = out.getContext('2d');
  octx.fillStyle = '#ffffff';
  octx.fillRect(0, 0, w, h);
  octx.drawImage(source, box.x, box.y, box.w, box.h, 0, 0, w, h);
  return { width: w, height: h, data: new Uint8Array(octx.getImageData(0, 0, w, h).data) };
}

/** An RGBA image as PNG bytes. */
export function encodePng(image: RgbaImage): Buffer {
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  const data = ctx.createImageData(image.width, image.height);
  data.data.set(image.data);
  ctx.putImageData(data, 0, 0);
  return canvas.toBuffer('image/png');
}

/**
 * The logo as the printer prints it: scaled down to the paper, Floyd–Steinberg dithered to black
 * dots, blank margins trimmed again, width padded to whole bytes (a raster row is 8 dots a byte).
 */
export function printLogo(png: Uint8Array, paperDots: number): RgbaImage {
  const colour = decodePngRgba(png);
  const scale = Math.min(1, paperDots / colour.width);
  const w = Math.max(1, Math.round(colour.width * scale));
  const h = Math.max(1, Math.round(colour.height * scale));
  const grey = greyScaled(colour, w, h);
  const dots = dither(grey, w, h);
  const width = Math.ceil(w / 8) * 8;
  const data = new Uint8Array(width * h * 4).fill(255);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (!dots[y * w + x]) continue;
      const i = (y * width + x) * 4;
      data[i] = 0;
      data[i + 1] = 0;
      data[i + 2] = 0;
    }
  }
  const bitmap = { width, height: h, data };
  const box = inkBox(bitmap);
  return box === undefined ? bitmap : crop(bitmap, { ...box, x: 0, w: width });
}

function greyScaled(src: RgbaImage, w: number, h: number): Float32Array {
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      // Box filter over the source pixels this dot covers.
      const x0 = Math.floor((x * src.width) / w);
      const x1 = Math.max(x0 + 1, Math.floor(((x + 1) * src.width) / w));
      const y0 = Math.floor((y * src.height) / h);
      const y1 = Math.max(y0 + 1, Math.floor(((y + 1) * src.height) / h));
      let sum = 0;
      for (let sy = y0; sy < y1; sy++) {
        for (let sx = x0; sx < x1; sx++) {
          const i = (sy * src.width + sx) * 4;
          sum +=
            0.299 * (src.data[i] ?? 255) +
            0.587 * (src.data[i + 1] ?? 255) +
            0.114 * (src.data[i + 2] ?? 255);
        }
      }
      out[y * w + x] = sum / ((x1 - x0) * (y1 - y0));
    }
  }
  return out;
}

function dither(grey: Float32Array, w: number, h: number): Uint8Array {
  const dots = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const old = grey[i] ?? 255;
      const black = old < 128;
      dots[i] = black ? 1 : 0;
      const err = old - (black ? 0 : 255);
      const spread = (dx: number, dy: number, f: number) => {
        const nx = x + dx;
        const ny = y + dy;
        if (nx < 0 || nx >= w || ny >= h) return;
        const j = ny * w + nx;
        grey[j] = (grey[j] ?? 255) + err * f;
      };
      spread(1, 0, 7 / 16);
      spread(-1, 1, 3 / 16);
      spread(0, 1, 5 / 16);
      spread(1, 1, 1 / 16);
    }
  }
  return dots;
}

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The smallest box holding every pixel that is not (nearly) white; undefined when blank. */
function inkBox(img: RgbaImage): Box | undefined {
  let x0 = img.width;
  let y0 = img.height;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      const i = (y * img.width + x) * 4;
      const ink = Math.min(img.data[i] ?? 255, img.data[i + 1] ?? 255, img.data[i + 2] ?? 255) < 245;
      if (!ink) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  }
  return x1 < 0 ? undefined : { x: x0, y: y0, w: x1 - x0 + 1, h: y1 - y0 + 1 };
}

function crop(img: RgbaImage, box: Box): RgbaImage {
  const data = new Uint8Array(box.w * box.h * 4);
  for (let y = 0; y < box.h; y++) {
    const from = ((box.y + y) * img.width + box.x) * 4;
    data.set(img.data.subarray(from, from + box.w * 4), y * box.w * 4);
  }
  return { width: box.w, height: box.h, data };
}
