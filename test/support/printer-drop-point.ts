import { EscPosEncoder } from '../../src/adapters/printer/escpos-encoder.js';
import type { PrinterProfile } from '../../src/config/printer-profile.js';
import { layoutFreeText } from '../../src/core/receipt/free-text-layout.js';

/**
 * Where the line should drop in the next receipt: in the middle of its fourth printed line. The
 * reference is the last job's bytes from its ESC @ on (status requests before it vary); a new job
 * starts with DLE EOT 1 and DLE EOT 4 (6 bytes), and each unit is followed by its confirmation
 * request — DLE EOT 1 (3 bytes) or a process-ID request GS ( H (11 bytes) — which are skipped.
 */
export function dropPoint(lastJobBytes: Uint8Array): number {
  let start = -1;
  for (let i = 0; i + 1 < lastJobBytes.length; i++) {
    if (lastJobBytes[i] === 0x1b && lastJobBytes[i + 1] === 0x40) {
      start = i;
      break;
    }
  }
  if (start < 0) throw new Error('no ESC @ in the reference job');
  let seen = 0;
  for (let i = start; i < lastJobBytes.length; i++) {
    if (lastJobBytes[i] !== 0x0a || ++seen !== 3) continue;
    // after the third line's LF: its confirmation request(s), the fourth line's modes (9), two characters
    let at = i + 1;
    for (;;) {
      if (lastJobBytes[at] === 0x10 && lastJobBytes[at + 1] === 0x04) at += 3;
      else if (lastJobBytes[at] === 0x1d && lastJobBytes[at + 1] === 0x28 && lastJobBytes[at + 2] === 0x48)
        at += 5 + (lastJobBytes[at + 3] ?? 0);
      else break;
    }
    return 6 + (at - start) + 9 + 2;
  }
  throw new Error('no third line in the reference job');
}

/**
 * Where the line should drop in the next job with a drawer kick: 5 bytes into its first line, once
 * the first unit (ESC @, ESC p, font, code page) and its confirmation request went out. The job
 * starts with DLE EOT 1 and DLE EOT 4 (6 bytes); the first unit does not depend on the receipt.
 */
export function dropInFirstLine(profile: PrinterProfile): number {
  const init = new EscPosEncoder(profile).encode(layoutFreeText('x', profile.charsPerLine), {
    openDrawer: true,
  }).units[0]!;
  const confirmation = profile.confirm === 'printed' ? 11 : 3; // GS ( H fn 48, or DLE EOT 1
  return 6 + init.end + confirmation + 5;
}
