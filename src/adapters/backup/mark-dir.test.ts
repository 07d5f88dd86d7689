import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isUnder, markDirInside, markDirWarning } from './mark-dir.js';

describe('rollback marks and the data dir (ADR 0804, ADR 0118)', () => {
  it('finds a mark dir inside the data dir, and only there', () => {
    // A service user whose home is the data dir gets the XDG default inside it.
    expect(markDirInside('/var/lib/kasa', '/var/lib/kasa/.local/state/kasa/marks')).toBe(
      '.local/state/kasa/marks',
    );
    expect(markDirInside('/var/lib/kasa', '/var/lib/kasa-marks')).toBeUndefined();
    expect(markDirInside('/var/lib/kasa', '/var/lib')).toBeUndefined();
    expect(markDirInside('/var/lib/kasa', '/var/lib/kasa')).toBe('.');
    expect(markDirInside('/var/lib/kasa', undefined)).toBeUndefined();
  });

  it('matches the folder and what lies under it, not a name that merely starts alike', () => {
    expect(isUnder('marks/chdu-1-2.json', 'marks')).toBe(true);
    expect(isUnder('marks', 'marks')).toBe(true);
    expect(isUnder('marks-old/chdu-1-2.json', 'marks')).toBe(false);
    expect(isUnder('marks/chdu-1-2.json', undefined)).toBe(false);
    // The data dir itself as the mark dir: only the mark files are marks.
    expect(isUnder('chdu-1-2.json', '.')).toBe(true);
    expect(isUnder('secrets/install-salt', '.')).toBe(false);
  });

  it('kasa serve warns when the marks lie inside the data dir', () => {
    const data = '/var/lib/kasa';
    expect(markDirWarning(data, join(data, '.local', 'state', 'kasa', 'marks'))).toMatch(
      /^WARNING: the CHDÚ high-water marks .* lie inside the data dir/,
    );
    expect(markDirWarning(data, '/var/lib/kasa-marks')).toBeUndefined();
  });
});
