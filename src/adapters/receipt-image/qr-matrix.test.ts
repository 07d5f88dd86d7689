import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { qrMatrix } from './qr-matrix.js';

function sameModules(a: ReturnType<typeof qrMatrix>, b: QRCode.QRCode): boolean {
  if (a.size !== b.modules.size) return false;
  for (let r = 0; r < a.size; r++) {
    for (let c = 0; c < a.size; c++) if (a.dark(r, c) !== (b.modules.get(r, c) === 1)) return false;
  }
  return true;
}

describe('qrMatrix', () => {
  it('builds a text that fits at the minimum version (SFS spec §2.4: online 3, offline 5)', () => {
    const text = 'O-7DBCDA8A56EE426DBCDA8A56EE426D1A';
    const m = qrMatrix({ text, ecc: 'M', minVersion: 3 });
    expect(QRCode.create(text, { errorCorrectionLevel: 'M' }).version).toBeLessThan(3);
    expect(m.version).toBe(3);
    expect(sameModules(m, QRCode.create(text, { errorCorrectionLevel: 'M', version: 3 }))).toBe(true);
  });

  it('takes the smallest version that holds a text too long for the minimum', () => {
    const text = `${'A1B2C3D4E5'.repeat(20)}:offline`;
    const auto = QRCode.create(text, { errorCorrectionLevel: 'M' });
    expect(auto.version).toBeGreaterThan(5);
    const m = qrMatrix({ text, ecc: 'M', minVersion: 5 });
    expect(m.version).toBe(auto.version);
    expect(sameModules(m, auto)).toBe(true);
  });
});
