import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SimMemory } from './sim-memory.js';

describe('SimMemory.open (ADR 1102)', () => {
  it('starts empty with a warning when its file is not a database (synchronous=OFF after a power cut)', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'kasa-sim-memory-')), 'sfs-sim-memory.sqlite');
    writeFileSync(file, Buffer.alloc(8192, 0x5a));
    writeFileSync(`${file}-wal`, 'garbage');
    expect(() => new SimMemory(file)).toThrow(expect.objectContaining({ code: 'SQLITE_NOTADB' }));
    const warnings: string[] = [];
    const memory = SimMemory.open(file, (line) => warnings.push(line));
    try {
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(file);
      expect(warnings[0]).toContain('SQLITE_NOTADB');
      expect(memory.receipt('pkp', 'message')).toBeUndefined();
      memory.addReceipt('pkp', 'O-1', 'message', '202603/1', 'uuid-1');
      expect(memory.receipt('pkp', 'message')).toEqual({ id: 'O-1', same: true, uuid: 'uuid-1' });
    } finally {
      memory.close();
    }
    expect(readFileSync(file).subarray(0, 15).toString()).toBe('SQLite format 3');
  });

  it('opens a readable file as it is, without a warning', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'kasa-sim-memory-')), 'sfs-sim-memory.sqlite');
    const first = SimMemory.open(file);
    first.addReceipt('pkp', 'O-1', 'message', '202603/1', 'uuid-1');
    first.close();
    const warnings: string[] = [];
    const again = SimMemory.open(file, (line) => warnings.push(line));
    try {
      expect(again.receipt('pkp', 'message')?.id).toBe('O-1');
      expect(warnings).toEqual([]);
    } finally {
      again.close();
    }
  });
});
