/**
 * What kasa knows about the printer's paper and character set (docs/printing.md, ADR 0504). For
 * now a profile is given in the `--printer` target's query (`tcp://h:9100?chars=42&codepage=cp1250`);
 * a later settings issue makes it a live setting. Everything here is plain data: the encoder, the
 * layout width and `GET /api/printer` read the same profile.
 */

/** `cp852` (PC852 Latin 2), `cp1250` (Windows-1250) or `raster`: text printed as bit images. */
export type PrinterCodepage = 'cp852' | 'cp1250' | 'raster';
export type PrinterFont = 'A' | 'B';
/** Printable width in dots at 203 dpi: 58 mm paper (48 mm printable), 72 mm and 80 mm printers. */
export type PaperWidthDots = 384 | 512 | 576;

export interface PrinterProfile {
  /** Characters per line at normal size in the chosen font: what receipts are laid out for. */
  readonly charsPerLine: number;
  readonly font: PrinterFont;
  readonly paperWidthDots: PaperWidthDots;
  readonly codepage: PrinterCodepage;
  /** The `ESC t n` value that selects the code page on this model (Epson table by default). */
  readonly codepageNumber: number;
  /** `raster`: QR drawn by kasa (version and size exactly ours); `native`: the printer's GS ( k. */
  readonly qr: 'raster' | 'native';
  /** Model name when the operator gave one (`GET /api/printer`). */
  readonly model?: string;
  /**
   * How a unit counts as on paper (ADR 0507): `received` — the printer answered DLE EOT after it,
   * so it arrived, and `bufferBytes` of print data later (ADR 0517) it has surely printed;
   * `printed` — the printer answered the process ID sent after it (Epson `GS ( H` fn 48), which it
   * does once it has printed it.
   */
  readonly confirm: 'received' | 'printed';
  /** The printer's receive buffer: what a power cut can lose after DLE EOT confirmed arrival. */
  readonly bufferBytes: number;
}

/** The receive buffer assumed when the profile does not say: 4 KB, as most receipt printers. */
export const DEFAULT_BUFFER_BYTES = 4096;

/** Font A is 12 dots wide, font B 9: the widths each paper gives (ESC/POS, 203 dpi). */
export const PROFILE_WIDTHS: ReadonlyArray<{ font: PrinterFont; chars: number; dots: PaperWidthDots }> = [
  { font: 'A', chars: 32, dots: 384 },
  { font: 'A', chars: 42, dots: 512 },
  { font: 'A', chars: 48, dots: 576 },
  { font: 'B', chars: 42, dots: 384 },
  { font: 'B', chars: 56, dots: 512 },
  { font: 'B', chars: 64, dots: 576 },
];

/** Epson `ESC t` numbers: PC852 = 18, WPC1250 = 45. Other makers may differ (`codepageNumber=`). */
export const EPSON_CODEPAGE_NUMBERS: Readonly<Record<Exclude<PrinterCodepage, 'raster'>, number>> = {
  cp852: 18,
  cp1250: 45,
};

export const DEFAULT_PROFILE: PrinterProfile = Object.freeze({
  charsPerLine: 48,
  font: 'A',
  paperWidthDots: 576,
  codepage: 'cp852',
  codepageNumber: 18,
  qr: 'raster',
  confirm: 'received',
  bufferBytes: DEFAULT_BUFFER_BYTES,
});

export class ProfileSyntaxError extends Error {}

const KEYS = [
  'chars',
  'font',
  'codepage',
  'codepageNumber',
  'qr',
  'model',
  'confirm',
  'bufferBytes',
] as const;

/** True for the query keys a profile takes (the target parser leaves the others to the adapter). */
export function isProfileKey(key: string): boolean {
  return (KEYS as readonly string[]).includes(key);
}

/**
 * Reads a profile from target query parameters: `chars` (32, 42, 48 with font A; 42, 56, 64 with
 * font B), `font` (A, B), `codepage` (cp852, cp1250, raster), `codepageNumber` (0–255), `qr`
 * (raster, native), `model` (free text, 1–40 printable characters), `confirm` (received, printed)
 * and `bufferBytes` (256–1048576). Unset keys take the defaults.
 */
export function parsePrinterProfile(params: URLSearchParams): PrinterProfile {
  const font = (params.get('font') ?? 'A').toUpperCase();
  if (font !== 'A' && font !== 'B') throw new ProfileSyntaxError('font must be A or B');
  const charsText = params.get('chars');
  const chars = charsText === null ? (font === 'A' ? 48 : 64) : Number(charsText);
  const width = PROFILE_WIDTHS.find((w) => w.font === font && w.chars === chars);
  if (!width) {
    const allowed = PROFILE_WIDTHS.filter((w) => w.font === font).map((w) => w.chars);
    throw new ProfileSyntaxError(`chars must be one of ${allowed.join(', ')} with font ${font}`);
  }
  const codepage = params.get('codepage') ?? 'cp852';
  if (codepage !== 'cp852' && codepage !== 'cp1250' && codepage !== 'raster') {
    throw new ProfileSyntaxError('codepage must be cp852, cp1250 or raster');
  }
  const numberText = params.get('codepageNumber');
  const codepageNumber =
    numberText === null ? (codepage === 'raster' ? 0 : EPSON_CODEPAGE_NUMBERS[codepage]) : Number(numberText);
  if (!/^\d{1,3}$/.test(numberText ?? '0') || codepageNumber > 255) {
    throw new ProfileSyntaxError('codepageNumber must be a whole number 0-255');
  }
  const qr = params.get('qr') ?? 'raster';
  if (qr !== 'raster' && qr !== 'native') throw new ProfileSyntaxError('qr must be raster or native');
  const model = params.get('model');
  if (model !== null && !/^[\x20-\x7e]{1,40}$/.test(model)) {
    throw new ProfileSyntaxError('model must be 1-40 printable ASCII characters');
  }
  const confirm = params.get('confirm') ?? 'received';
  if (confirm !== 'received' && confirm !== 'printed') {
    throw new ProfileSyntaxError('confirm must be received or printed');
  }
  const bufferText = params.get('bufferBytes');
  const bufferBytes = bufferText === null ? DEFAULT_BUFFER_BYTES : Number(bufferText);
  if (!/^\d{1,7}$/.test(bufferText ?? '4096') || bufferBytes < 256 || bufferBytes > 1_048_576) {
    throw new ProfileSyntaxError('bufferBytes must be a whole number 256-1048576');
  }
  return Object.freeze({
    charsPerLine: chars,
    font,
    paperWidthDots: width.dots,
    codepage,
    codepageNumber,
    qr,
    confirm,
    bufferBytes,
    ...(model === null ? {} : { model }),
  });
}

/** The query that gives this profile back (only what differs from the defaults). */
export function describePrinterProfile(p: PrinterProfile): string {
  const params = new URLSearchParams();
  if (p.charsPerLine !== DEFAULT_PROFILE.charsPerLine || p.font !== 'A')
    params.set('chars', String(p.charsPerLine));
  if (p.font !== 'A') params.set('font', p.font);
  if (p.codepage !== 'cp852') params.set('codepage', p.codepage);
  const defaultNumber = p.codepage === 'raster' ? 0 : EPSON_CODEPAGE_NUMBERS[p.codepage];
  if (p.codepageNumber !== defaultNumber) params.set('codepageNumber', String(p.codepageNumber));
  if (p.qr !== 'raster') params.set('qr', p.qr);
  if (p.model !== undefined) params.set('model', p.model);
  if (p.confirm !== 'received') params.set('confirm', p.confirm);
  if (p.bufferBytes !== DEFAULT_BUFFER_BYTES) params.set('bufferBytes', String(p.bufferBytes));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** The printable width a line width implies when no profile says otherwise (font A). */
export function paperWidthForChars(charsPerLine: number): PaperWidthDots {
  if (charsPerLine <= 32) return 384;
  if (charsPerLine <= 42) return 512;
  return 576;
}
