import jsQRModule, { type QRCode } from 'jsqr';
import { PNG } from 'pngjs';

type JsQr = (data: Uint8ClampedArray, width: number, height: number) => QRCode | null;
const jsQR: JsQr = (jsQRModule as unknown as { default?: JsQr }).default ?? (jsQRModule as unknown as JsQr);

/** The text of the QR code in a PNG (a receipt image), or undefined when none can be read. */
export function readQr(png: Uint8Array): string | undefined {
  const image = PNG.sync.read(Buffer.from(png));
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data ?? undefined;
}
