import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CarefulMemory, identityText } from './careful-memory.js';
import { SimMemory } from './sim-memory.js';

const REGISTER = '88812345678900001';
const uuids = () => new SimMemory(':memory:');

describe('CarefulMemory (ADR 0422)', () => {
  it('recognises a Uuid reused for another message, the very same message again is no reuse', () => {
    const memory = new CarefulMemory({ uuids: uuids() });
    memory.rememberUuid('AB-1', '["receipt",1]');
    expect(memory.heldByOther('ab-1', '["receipt",1]')).toBe(false);
    expect(memory.heldByOther('ab-1', '["receipt",2]')).toBe(true);
    expect(memory.heldByOther('ab-2', '["receipt",2]')).toBe(false);
  });

  it('keeps the Uuids in the simulator memory: none forgotten, across a restart, forgotten by clear', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'kasa-careful-')), 'sim-memory.sqlite');
    const store = new SimMemory(file);
    const memory = new CarefulMemory({ uuids: store });
    for (let n = 1; n <= 2000; n++) memory.rememberUuid(`u${n}`, `m${n}`);
    store.close();
    const reopened = new SimMemory(file);
    const again = new CarefulMemory({ uuids: reopened });
    // The first one is still known after 2,000 others and a restart (ADR 1102: on disk, not in memory).
    expect(again.heldByOther('U1', 'other')).toBe(true);
    expect(again.heldByOther('u1', 'm1')).toBe(false);
    expect(again.heldByOther('u2000', 'other')).toBe(true);
    again.clear();
    expect(again.heldByOther('u1', 'other')).toBe(false);
    reopened.close();
  });

  it('keeps the identities it learnt in its file across restarts; clear empties it', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'kasa-careful-')), 'identities.json');
    const first = new CarefulMemory({ uuids: uuids(), identitiesFile: file });
    first.rememberIdentity({ cashRegisterCode: REGISTER, ico: '10000003', icDph: 'SK1234567890' });
    first.rememberIdentity({ cashRegisterCode: REGISTER, ico: '20000001' });
    const again = new CarefulMemory({ uuids: uuids(), identitiesFile: file });
    expect([...again.identitiesOf(REGISTER)]).toEqual([
      identityText('10000003', 'SK1234567890'),
      identityText('20000001', undefined),
    ]);
    again.clear();
    expect(new CarefulMemory({ uuids: uuids(), identitiesFile: file }).identitiesOf(REGISTER).size).toBe(0);
  });

  it('refuses to start on a file that is not its identity list, naming the file', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'kasa-careful-')), 'identities.json');
    writeFileSync(file, '{"identities": 3}');
    expect(() => new CarefulMemory({ uuids: uuids(), identitiesFile: file })).toThrow(file);
    expect(readFileSync(file, 'utf8')).toBe('{"identities": 3}');
  });
});
