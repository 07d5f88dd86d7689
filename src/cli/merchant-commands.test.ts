import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { Pkcs12MerchantKeystore } from '../adapters/merchant/pkcs12-merchant-keystore.js';
import { SealedSecretStore } from '../adapters/merchant/sealed-secret-store.js';
import { registerMerchantCommands } from './merchant-commands.js';

class Exit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const program = new Command('kasa');
  registerMerchantCommands(program, {
    out: (t) => {
      out += t;
    },
    err: (t) => {
      err += t;
    },
    exit: (code) => {
      throw new Exit(code);
    },
  });
  try {
    await program.parseAsync(args, { from: 'user' });
    return { code: 0, out, err };
  } catch (e) {
    if (e instanceof Exit) return { code: e.code, out, err };
    throw e;
  }
}

describe('kasa merchant new', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'kasa-cli-'));

  it('writes both files with the defaults and never prints the password', async () => {
    const out = join(tmp, 'm1');
    const r = await run([
      'merchant',
      'new',
      '--out',
      out,
      '--password',
      'Pw-Unique-7731',
      '--ca-dir',
      join(tmp, 'ca'),
    ]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('88820210000030001');
    expect(r.out + r.err).not.toContain('Pw-Unique-7731');
    const ks = new Pkcs12MerchantKeystore(new SealedSecretStore(join(tmp, 'secrets')));
    const id = ks.readIdentity(readFileSync(join(out, 'register_ident_data.xml'), 'utf8'));
    expect(id.organizationUnit.cashRegisterType).toBe('STANDARD');
    const opened = ks.open(
      readFileSync(join(out, 'register_auth_data.xml'), 'utf8'),
      'Pw-Unique-7731',
      'Pw-Unique-7731',
    );
    expect(opened.alias).toBe('88820210000030001');
    expect(existsSync(join(tmp, 'ca', 'ca-cert.pem'))).toBe(true);
  });

  it('takes every option', async () => {
    const out = join(tmp, 'm2');
    const r = await run([
      'merchant',
      'new',
      '--out',
      out,
      '--password',
      'x',
      '--ca-dir',
      join(tmp, 'ca'),
      '--type',
      'PORTABLE',
      '--dic',
      '2021000025',
      '--register-code',
      '8882021000025000',
      '--no-vat-payer',
      '--valid-days',
      '15',
      '--name',
      'Stánok',
    ]);
    expect(r.code).toBe(0);
    const ks = new Pkcs12MerchantKeystore(new SealedSecretStore(join(tmp, 'secrets')));
    const id = ks.readIdentity(readFileSync(join(out, 'register_ident_data.xml'), 'utf8'));
    expect(id).toMatchObject({
      dic: '2021000025',
      corporateBodyFullName: 'Stánok',
      organizationUnit: { cashRegisterType: 'PORTABLE', cashRegisterCode: '8882021000025000' },
    });
    expect(id.icDph).toBeUndefined();
  });

  it.each([
    [['--type', 'MOBILE'], '--type'],
    [['--dic', '123'], '--dic'],
    [['--register-code', '12'], '--register-code'],
    [['--valid-days', '0'], '--valid-days'],
    [['--valid-days', 'ten'], '--valid-days'],
    [['--password', ''], '--password'],
    [['--colour', 'red'], '--colour'],
  ])('a bad flag or value %j exits 2 with one line naming it', async (extra, flag) => {
    const base = [
      'merchant',
      'new',
      '--out',
      join(tmp, 'bad'),
      '--password',
      'x',
      '--ca-dir',
      join(tmp, 'ca'),
    ];
    const r = await run([...base, ...extra]);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toContain(flag);
    expect(existsSync(join(tmp, 'bad', 'register_auth_data.xml'))).toBe(false);
  });

  it('a missing required flag exits 2 naming it', async () => {
    const r = await run(['merchant', 'new', '--out', join(tmp, 'bad2'), '--ca-dir', join(tmp, 'ca')]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--password');
  });
});
