import QRCode from 'qrcode';

/**
 * A QR code as PNG for screens (customer display, POS): error correction M as the Payme standard
 * asks (research §4), a 4-module quiet zone, `scale` pixels per module. Deterministic.
 */
export async function qrPng(text: string, scale: number): Promise<Uint8Array> {
  return new Uint8Array(
    await QRCode.toBuffer(text, { errorCorrectionLevel: 'M', margin: 4, scale, type: 'png' }),
  );
}
