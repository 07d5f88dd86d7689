import { describe, expect, it } from 'vitest';
import { FiscalError } from '../../fiscal-error.js';
import type { NewRecord } from '../../journal/records.js';
import type { Journal } from '../../ports/journal.js';
import type { SettingsApplier } from '../../ports/settings-applier.js';
import { LiveSettings } from '../../settings/live-settings.js';
import { SETTING_DEFAULTS } from '../../settings/settings-schema.js';
import { WriteLock } from '../write-lock.js';
import { settingsView } from './get-settings.js';
import { StoreSettings } from './store-settings.js';

/** A journal whose settings records are merged into `stored` as the index does. */
function setup(options: { appliers?: SettingsApplier[]; failWrite?: boolean } = {}) {
  const stored: Record<string, unknown> = {};
  const written: NewRecord[] = [];
  const journal = {
    async append(record: NewRecord) {
      if (options.failWrite) throw new FiscalError('CHDU_WRITE_ERROR', 'the CHDÚ failed');
      written.push(record);
      if (record.type === 'settings') Object.assign(stored, record.body.changes);
      return { ...record, recordNo: written.length, version: 1, address: 0, writtenAt: '' };
    },
  } as unknown as Journal;
  const settings = new LiveSettings({
    baseline: { ...SETTING_DEFAULTS, sfsTimeoutMs: 2000 },
    fixed: [{ key: 'sfsTimeoutMs', by: '--sfs-timeout-ms' }],
    stored: () => stored,
  });
  const lock = new WriteLock();
  const store = new StoreSettings({ journal, lock, settings, appliers: options.appliers ?? [] });
  return { store, written, settings, lock };
}

async function refusal(p: Promise<unknown>): Promise<FiscalError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof FiscalError) return e;
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('PUT /api/settings/store use case', () => {
  it('writes only the keys that change, as one settings record, and answers them in force', async () => {
    const { store, written, settings } = setup();
    const answer = await store.execute({
      printerCharsPerLine: 64,
      logoEnabled: true,
      receiptFooter: 'Ďakujeme',
    });
    expect(answer.changed.sort()).toEqual(['printerCharsPerLine', 'receiptFooter']);
    expect(written).toEqual([
      { type: 'settings', body: { changes: { printerCharsPerLine: 64, receiptFooter: 'Ďakujeme' } } },
    ]);
    expect(settings.current().printerCharsPerLine).toBe(64);
    expect(answer.settings.receiptFooter).toBe('Ďakujeme');
  });

  it('accepts exactly what GET returned (fixed keys included) and then writes nothing', async () => {
    const { store, written, settings } = setup();
    const got = settingsView(settings);
    expect(got.fixed).toEqual(['sfsTimeoutMs']);
    expect(got.fixedBy).toEqual({ sfsTimeoutMs: '--sfs-timeout-ms' });
    const answer = await store.execute(got.settings);
    expect(answer.changed).toEqual([]);
    expect(written).toEqual([]);
  });

  it('refuses an unknown key, a bad value, a changed fixed key and a broken rule with 701 naming the key; nothing written', async () => {
    const { store, written } = setup();
    const cases: Array<[unknown, string]> = [
      [{ printerWidth: 32 }, 'settings.printerWidth'],
      [{ printerCharsPerLine: 40 }, 'settings.printerCharsPerLine'],
      [{ logoEnabled: 'yes' }, 'settings.logoEnabled'],
      [{ sfsTimeoutMs: 9000 }, 'settings.sfsTimeoutMs'],
      [{ printerCharsPerLine: 42 }, 'settings.printerCharsPerLine'],
      [{ sfsUrl: 'https://sfs.example/soap' }, 'settings.sfsTrust'],
      [[], 'settings'],
    ];
    for (const [patch, field] of cases) {
      const e = await refusal(store.execute(patch));
      expect(e.resultCode, JSON.stringify(patch)).toBe(701);
      expect(e.details?.field, JSON.stringify(patch)).toBe(field);
    }
    const fixed = await refusal(store.execute({ sfsTimeoutMs: 9000 }));
    expect(fixed.message).toContain('--sfs-timeout-ms');
    expect(written).toEqual([]);
  });

  it('a target that cannot be opened is 701 from its applier: nothing written, nothing committed, prepared ones aborted', async () => {
    const events: string[] = [];
    const ok: SettingsApplier = {
      async prepare() {
        events.push('prepare ok');
        return { commit: () => events.push('commit ok'), abort: async () => void events.push('abort ok') };
      },
    };
    const failing: SettingsApplier = {
      async prepare() {
        throw new FiscalError('INVALID_INPUT', 'settings.printerTarget: cannot be opened', {
          field: 'settings.printerTarget',
        });
      },
    };
    const { store, written, settings } = setup({ appliers: [ok, failing] });
    const e = await refusal(store.execute({ printerTarget: 'tcp://127.0.0.1:9' }));
    expect(e.details?.field).toBe('settings.printerTarget');
    expect(events).toEqual(['prepare ok', 'abort ok']);
    expect(written).toEqual([]);
    expect(settings.current().printerTarget).toBe('virtual');
  });

  it('commits the prepared change only after the record is in the CHDÚ; a failed write aborts it', async () => {
    const events: string[] = [];
    const applier: SettingsApplier = {
      async prepare(previous, next) {
        events.push(`prepare ${previous.printerTarget}→${next.printerTarget}`);
        return { commit: () => events.push('commit'), abort: async () => void events.push('abort') };
      },
    };
    const good = setup({ appliers: [applier] });
    await good.store.execute({ printerTarget: 'none' });
    expect(events).toEqual(['prepare virtual→none', 'commit']);
    events.length = 0;
    const bad = setup({ appliers: [applier], failWrite: true });
    const e = await refusal(bad.store.execute({ printerTarget: 'none' }));
    expect(e.resultCode).toBe(201);
    expect(events).toEqual(['prepare virtual→none', 'abort']);
  });

  it('is a writer: 300 while another writing request holds the lock', async () => {
    const { store, lock } = setup();
    let release!: () => void;
    const held = lock.run('document/store', () => new Promise<void>((r) => (release = r)));
    const e = await refusal(store.execute({ logoEnabled: false }));
    expect(e.resultCode).toBe(300);
    release();
    await held;
  });
});
