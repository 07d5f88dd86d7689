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

  it("records a receipt inside a request's transaction with it, and nothing of a request that throws", () => {
    const memory = SimMemory.open(':memory:');
    try {
      memory.transaction(() => memory.addReceipt('pkp-1', 'O-1', 'message 1', '202603/1', 'uuid-1'));
      expect(memory.receipt('pkp-1', 'message 1')).toEqual({ id: 'O-1', same: true, uuid: 'uuid-1' });
      expect(memory.numberTaken('202603/1')).toBe(true);
      expect(() =>
        memory.transaction(() => {
          memory.addReceipt('pkp-2', 'O-2', 'message 2', '202603/2', 'uuid-2');
          memory.rememberUuid('uuid-2', 'message 2');
          throw new Error('refused after recording');
        }),
      ).toThrow('refused after recording');
      expect(memory.receipt('pkp-2', 'message 2')).toBeUndefined();
      expect(memory.numberTaken('202603/2')).toBe(false);
      expect(memory.uuidHeldByOther('uuid-2', 'another message')).toBe(false);
      // A number taken refuses a second receipt inside a transaction too (and leaves nothing).
      expect(() =>
        memory.transaction(() => memory.addReceipt('pkp-3', 'O-3', 'message 3', '202603/1', 'uuid-3')),
      ).toThrow();
      expect(memory.receipt('pkp-3', 'message 3')).toBeUndefined();
    } finally {
      memory.close();
    }
  });

  it('compares texts by their digests without mixing up texts digested one after the other', () => {
    const memory = SimMemory.open(':memory:');
    try {
      memory.addReceipt('pkp-a', 'O-A', 'message a', '202603/1', 'uuid-a');
      memory.rememberUuid('uuid-a', 'message a');
      for (const other of ['message b', 'message a ', 'Message a', 'message a']) {
        const same = other === 'message a';
        expect(memory.receipt('pkp-a', other)?.same, other).toBe(same);
        expect(memory.uuidHeldByOther('uuid-a', other), other).toBe(!same);
      }
      expect(memory.receipt('pkp-b', 'message a')).toBeUndefined();
    } finally {
      memory.close();
    }
  });
});
