import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CarefulMemory, identityText } from './careful-memory.js';

const REGISTER = '88812345678900001';

describe('CarefulMemory (ADR 0422)', () => {
  it('recognises a Uuid reused for another message, the very same message again is no reuse', () => {
    const memory = new CarefulMemory();
    memory.rememberUuid('AB-1', '["receipt",1]');
    expect(memory.heldByOther('ab-1', '["receipt",1]')).toBe(false);
    expect(memory.heldByOther('ab-1', '["receipt",2]')).toBe(true);
    expect(memory.heldByOther('ab-2', '["receipt",2]')).toBe(false);
  });

  it('is bounded: beyond uuidLimit the oldest Uuid is forgotten, a re-accepted one moves to the end', () => {
    const memory = new CarefulMemory({ uuidLimit: 3 });
    for (const n of [1, 2, 3]) memory.rememberUuid(`u${n}`, `m${n}`);
    memory.rememberUuid('u1', 'm1'); // accepted again: now the newest
    memory.rememberUuid('u4', 'm4');
    expect(memory.heldByOther('u2', 'other')).toBe(false); // forgotten
    for (const n of [1, 3, 4]) expect(memory.heldByOther(`u${n}`, 'other')).toBe(true);
  });

  it('keeps the identities it learnt in its file across restarts; clear empties it', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'kasa-careful-')), 'identities.json');
    const first = new CarefulMemory({ identitiesFile: file });
    first.rememberIdentity({ cashRegisterCode: REGISTER, ico: '10000003', icDph: 'SK1234567890' });
    first.rememberIdentity({ cashRegisterCode: REGISTER, ico: '20000001' });
    const again = new CarefulMemory({ identitiesFile: file });
    expect([...again.identitiesOf(REGISTER)]).toEqual([
      identityText('10000003', 'SK1234567890'),
      identityText('20000001', undefined),
    ]);
    again.clear();
    expect(new CarefulMemory({ identitiesFile: file }).identitiesOf(REGISTER).size).toBe(0);
  });

  it('refuses to start on a file that is not its identity list, naming the file', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'kasa-careful-')), 'identities.json');
    writeFileSync(file, '{"identities": 3}');
    expect(() => new CarefulMemory({ identitiesFile: file })).toThrow(file);
    expect(readFileSync(file, 'utf8')).toBe('{"identities": 3}');
  });
});
