import { bytesToBase64 } from '../../base64.js';
import type { LogoImages, LogoPicture } from '../../ports/logo-images.js';
import { layoutReceipt } from '../../receipt/receipt-layout.js';
import { SAMPLE_RECEIPTS } from '../../receipt/sample-receipts.js';
import { LOGO_REF } from './logo-source.js';
import { decodeImageData } from './store-logo.js';

export type PreviewFormat = 'BOTH' | 'PRINT' | 'ELECTRONIC';

/** One variant of the preview: a PNG in Base64 and its size in dots (pixels). */
export interface PreviewImage {
  imageData: string;
  width: number;
  height: number;
}

/**
 * `POST /api/image/preview` (ADR 0509): the logo as the printer will print it (`PRINT`: black
 * dots only, dithered, at most the paper's width) and as the electronic receipt shows it
 * (`ELECTRONIC`: the colour logo), only the variants asked for; with `fitOnReceipt` each variant
 * is a sample receipt headed by the logo. Read-only: nothing is stored.
 */
export class PreviewLogo {
  constructor(private readonly deps: { images: LogoImages; charsPerLine: number }) {}

  execute(input: { imageData: string; format: PreviewFormat; fitOnReceipt?: boolean | null | undefined }): {
    resultCode: 0;
    print?: PreviewImage;
    electronic?: PreviewImage;
  } {
    const { images } = this.deps;
    const logo = images.normalize(decodeImageData(input.imageData)).png;
    const sample = layoutReceipt({ ...SAMPLE_RECEIPTS.pdOnline, logoRef: LOGO_REF }, this.deps.charsPerLine);
    const variant = (which: 'PRINT' | 'ELECTRONIC'): PreviewImage => {
      if (input.fitOnReceipt === true) return toPreview(images.onReceipt(sample, logo, which));
      return toPreview(which === 'PRINT' ? images.printed(logo) : images.electronic(logo));
    };
    return {
      resultCode: 0,
      ...(input.format !== 'ELECTRONIC' ? { print: variant('PRINT') } : {}),
      ...(input.format !== 'PRINT' ? { electronic: variant('ELECTRONIC') } : {}),
    };
  }
}

function toPreview(p: LogoPicture): PreviewImage {
  return { imageData: bytesToBase64(p.png), width: p.width, height: p.height };
}
