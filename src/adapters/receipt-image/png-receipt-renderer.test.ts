import { createHash } from 'node:crypto';
import { createCanvas } from '@napi-rs/canvas';
import { PNG } from 'pngjs';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { LineBuilder } from '../../core/receipt/line-builder.js';
import { layoutReceipt } from '../../core/receipt/receipt-layout.js';
import { SAMPLE_RECEIPTS } from '../../core/receipt/sample-receipts.js';
import { PngReceiptRenderer, type QrPlacement } from './png-receipt-renderer.js';
import {
  registerReceiptFonts,
  resolveReceiptFonts,
  SHIPPED_FONT_DIR,
  SYSTEM_FONT_DIR,
} from './receipt-fonts.js';

const renderer = new PngReceiptRenderer();

function decode(png: Buffer): PNG {
  return PNG.sync.read(png);
}

function isDark(image: PNG, x: number, y: number): boolean {
  const i = (y * image.width + x) * 4;
  const lum = ((image.data[i] ?? 255) + (image.data[i + 1] ?? 255) + (image.data[i + 2] ?? 255)) / 3;
  return lum < 128;
}

/**
 * Reads the QR back from the decoded image, module by module (the centre pixel of each module),
 * and compares it with the matrix `qrcode` builds for the expected text at the same version and
 * level. No QR decoder is installed; this is the equivalent check: same modules ⇒ same content.
 */
function expectQrReads(image: PNG, placement: QrPlacement, expectedText: string, ecc: 'M'): void {
  const reference = QRCode.create(expectedText, { errorCorrectionLevel: ecc, version: placement.version });
  expect(placement.size).toBe(reference.modules.size);
  const half = Math.floor(placement.modulePx / 2);
  let mismatches = 0;
  for (let r = 0; r < placement.size; r++) {
    for (let c = 0; c < placement.size; c++) {
      const drawn = isDark(
        image,
        placement.x + c * placement.modulePx + half,
        placement.y + r * placement.modulePx + half,
      );
      if (drawn !== (reference.modules.get(r, c) === 1)) mismatches++;
    }
  }
  expect(mismatches).toBe(0);
  // The quiet zone around the symbol is white paper.
  const q = placement.quietModules * placement.modulePx;
  for (let d = 1; d <= q; d++) {
    expect(isDark(image, placement.x - d, placement.y + half)).toBe(false);
    expect(isDark(image, placement.x + placement.size * placement.modulePx - 1 + d, placement.y + half)).toBe(
      false,
    );
    expect(isDark(image, placement.x + half, placement.y - d)).toBe(false);
  }
}

describe('PngReceiptRenderer', () => {
  it('renders an online PD on 80 mm paper with a readable UID QR, version ≥ 3, ≥ 22 mm', () => {
    const layout = layoutReceipt(SAMPLE_RECEIPTS.pdOnline, 48);
    const out = renderer.render(layout, { paperWidthPx: 576 });
    const image = decode(out.png);
    expect(image.width).toBe(576);
    expect(image.height).toBe(out.height);
    expect(out.qrCodes).toHaveLength(1);
    const [qr] = out.qrCodes;
    if (qr === undefined) throw new Error('no QR');
    expect(qr.text).toBe(SAMPLE_RECEIPTS.pdOnline.uid);
    expect(qr.version).toBeGreaterThanOrEqual(3);
    // SFS spec §2.4: at least 22 mm = 173.2 dots at 203 dpi.
    expect(qr.size * qr.modulePx).toBeGreaterThanOrEqual(174);
    expectQrReads(image, qr, SAMPLE_RECEIPTS.pdOnline.qrText, 'M');
  });

  it('renders an offline PD on 58 mm paper with the offline QR (version ≥ 5, level M)', () => {
    const view = SAMPLE_RECEIPTS.pdOffline;
    const out = renderer.render(layoutReceipt(view, 32), { paperWidthPx: 384 });
    const image = decode(out.png);
    expect(image.width).toBe(384);
    const [qr] = out.qrCodes;
    if (qr === undefined) throw new Error('no QR');
    expect(qr.version).toBeGreaterThanOrEqual(5);
    expect(qr.size * qr.modulePx).toBeGreaterThanOrEqual(174);
    expect(qr.x + qr.size * qr.modulePx).toBeLessThanOrEqual(384);
    expectQrReads(image, qr, view.qrText, 'M');
  });

  it('a QR drawn from another text does not pass the check (the check is real)', () => {
    const out = renderer.render(layoutReceipt(SAMPLE_RECEIPTS.pdOnline, 42), { paperWidthPx: 576 });
    const [qr] = out.qrCodes;
    if (qr === undefined) throw new Error('no QR');
    expect(() => expectQrReads(decode(out.png), qr, 'O-7DBCDA8A56EE426DBCDA8A56EE426D1B', 'M')).toThrow();
  });

  it('is deterministic: same layout, same bytes, also from a second renderer', () => {
    const layout = layoutReceipt(SAMPLE_RECEIPTS.paragon, 42);
    const a = renderer.render(layout, { paperWidthPx: 576 }).png;
    const b = renderer.render(layout, { paperWidthPx: 576 }).png;
    const c = new PngReceiptRenderer().render(layout, { paperWidthPx: 576 }).png;
    const hash = (x: Buffer) => createHash('sha256').update(x).digest('hex');
    expect(hash(b)).toBe(hash(a));
    expect(hash(c)).toBe(hash(a));
    const other = renderer.render(layoutReceipt(SAMPLE_RECEIPTS.nd, 42), { paperWidthPx: 576 }).png;
    expect(hash(other)).not.toBe(hash(a));
  });

  it('draws text ink on text lines and leaves the margins white', () => {
    const layout = new LineBuilder(32).wrapped('ŽLTÝ KÔŇ', { bold: true }).wrapped('').build();
    const out = renderer.render(layout, { paperWidthPx: 384 });
    const image = decode(out.png);
    const inkInRows = (y0: number, y1: number) => {
      let n = 0;
      for (let y = y0; y < y1; y++) for (let x = 0; x < image.width; x++) if (isDark(image, x, y)) n++;
      return n;
    };
    // 16 px top margin, then two 22 px lines (11 px cells on 384 px paper).
    expect(inkInRows(16, 38)).toBeGreaterThan(200);
    expect(inkInRows(38, 60)).toBe(0);
    expect(inkInRows(0, 10)).toBe(0);
    expect(out.height).toBe(16 + 22 + 22 + 16);
  });

  it('draws a logo image from PNG bytes, centred, and skips an unknown key', () => {
    const logo = new PNG({ width: 40, height: 20 });
    logo.data.fill(0);
    for (let i = 3; i < logo.data.length; i += 4) logo.data[i] = 255; // opaque black
    const png = PNG.sync.write(logo);
    const layout = new LineBuilder(32).image('logo').image('missing').build();
    const out = renderer.render(layout, { paperWidthPx: 384, images: new Map([['logo', png]]) });
    const image = decode(out.png);
    expect(isDark(image, 192, 16 + 10)).toBe(true);
    expect(isDark(image, 192 - 21, 16 + 10)).toBe(false);
    expect(isDark(image, 192 + 21, 16 + 10)).toBe(false);
    // Only the known image takes space: margin + 20 px logo + half a line after it.
    expect(out.height).toBe(16 + 20 + 11 + 16);
  });
});

/**
 * The receipt as the canvas draws it character by character (what the renderer did before it
 * copied each glyph drawn once; capability 13): the pixels must be the same.
 */
function drawnByCanvas(
  layout: ReturnType<typeof layoutReceipt>,
  paperPx: number,
  height: number,
): Uint8Array {
  const family = registerReceiptFonts(resolveReceiptFonts());
  const canvas = createCanvas(paperPx, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, paperPx, height);
  ctx.fillStyle = '#000000';
  const cell = Math.floor((paperPx - 16) / layout.width);
  const x0 = Math.floor((paperPx - cell * layout.width) / 2);
  const fontPx = Math.round((cell / (1233 / 2048)) * 100) / 100;
  let y = 16;
  for (const block of layout.blocks) {
    if (block.kind === 'text') {
      const scale = block.size === 'double' ? 2 : 1;
      const chars = Array.from(block.text.normalize('NFC'));
      const span = cell * layout.width;
      let x = x0;
      if (block.align === 'center') x += Math.floor((span - cell * scale * chars.length) / 2 / cell) * cell;
      if (block.align === 'right') x += span - cell * scale * chars.length;
      ctx.font = `${block.bold ? 'bold ' : ''}${fontPx * scale}px ${family}`;
      const baseline = y + Math.round(cell * 2 * scale * 0.78);
      chars.forEach((ch, i) => {
        if (ch !== ' ') ctx.fillText(ch, x + i * cell * scale, baseline);
      });
      y += cell * 2 * scale;
    } else if (block.kind === 'separator') {
      const mid = y + cell;
      if (block.style === 'double') {
        ctx.fillRect(x0, mid - 3, cell * layout.width, 2);
        ctx.fillRect(x0, mid + 1, cell * layout.width, 2);
      } else ctx.fillRect(x0, mid - 1, cell * layout.width, 2);
      y += cell * 2;
    } else if (block.kind === 'feed') y += cell * 2 * block.lines;
    else if (block.kind === 'qr') break; // the QR is checked module by module above
  }
  return new Uint8Array(ctx.getImageData(0, 0, paperPx, height).data);
}

describe('PngReceiptRenderer pixels', () => {
  it('are the canvas drawing each character itself, for every sample receipt and paper (text up to the QR)', () => {
    for (const [name, view] of Object.entries(SAMPLE_RECEIPTS)) {
      for (const [width, paperPx] of [
        [32, 384],
        [48, 576],
      ] as const) {
        const layout = layoutReceipt(view, width);
        const out = renderer.render(layout, { paperWidthPx: paperPx });
        const image = decode(out.png);
        const reference = drawnByCanvas(layout, paperPx, out.height);
        const qrTop = out.qrCodes[0]
          ? out.qrCodes[0].y - out.qrCodes[0].quietModules * out.qrCodes[0].modulePx
          : out.height;
        let differing = 0;
        for (let i = 0; i < paperPx * qrTop * 4; i++) if (image.data[i] !== reference[i]) differing++;
        expect(differing, `${name} at ${width}`).toBe(0);
      }
    }
  });

  it('keeps a coloured logo in colour (an RGB PNG), a grey receipt grey', () => {
    const logo = new PNG({ width: 30, height: 10 });
    for (let i = 0; i < logo.data.length; i += 4) logo.data.set([200, 30, 40, 255], i);
    const layout = new LineBuilder(32).image('logo').wrapped('KASA').build();
    const coloured = renderer.render(layout, {
      paperWidthPx: 384,
      images: new Map([['logo', PNG.sync.write(logo)]]),
    });
    expect(coloured.png[25]).toBe(2); // IHDR colour type: truecolour
    const image = decode(coloured.png);
    const at = ((16 + 5) * 384 + 192) * 4;
    expect([...image.data.subarray(at, at + 3)]).toEqual([200, 30, 40]);
    // The text line after the logo (16 px margin, 10 px logo, half a 22 px line) still has its ink.
    let ink = 0;
    for (let y = 16 + 10 + 11; y < 16 + 10 + 11 + 22; y++)
      for (let x = 0; x < 384; x++) if (isDark(image, x, y)) ink++;
    expect(ink).toBeGreaterThan(50);
    const plain = renderer.render(new LineBuilder(32).wrapped('KASA').build(), { paperWidthPx: 384 });
    expect(plain.png[25]).toBe(0); // greyscale
  });
});

describe('resolveReceiptFonts', () => {
  it('prefers an explicit folder, then the shipped fonts, then the system ones', () => {
    const all = () => true;
    expect(resolveReceiptFonts('/opt/fonts', all).regular).toBe('/opt/fonts/DejaVuSansMono.ttf');
    expect(resolveReceiptFonts(undefined, all).bold).toBe(`${SHIPPED_FONT_DIR}/DejaVuSansMono-Bold.ttf`);
    const systemOnly = (p: string) => p.startsWith(SYSTEM_FONT_DIR);
    expect(resolveReceiptFonts(undefined, systemOnly).regular).toBe(`${SYSTEM_FONT_DIR}/DejaVuSansMono.ttf`);
    // A folder counts only with both faces.
    const regularOnly = (p: string) => (p.startsWith('/opt/fonts') ? p.endsWith('Mono.ttf') : systemOnly(p));
    expect(resolveReceiptFonts('/opt/fonts', regularOnly).regular).toBe(
      `${SYSTEM_FONT_DIR}/DejaVuSansMono.ttf`,
    );
    expect(() => resolveReceiptFonts('/opt/fonts', () => false)).toThrow(/DejaVuSansMono/);
  });

  it('finds the fonts shipped in the repository', () => {
    expect(resolveReceiptFonts().regular).toBe(`${SHIPPED_FONT_DIR}/DejaVuSansMono.ttf`);
  });
});
