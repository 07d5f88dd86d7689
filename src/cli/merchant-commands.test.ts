import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Pkcs12MerchantKeystore } from '../adapters/merchant/pkcs12-merchant-keystore.js';
import { SealedSecretStore } from '../adapters/merchant/sealed-secret-store.js';
import { type CliIo, runCli } from './program.js';

async function run(args: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIo = {
    env: {},
    cwd,
    stdout: (t) => {
      out += t;
    },
    stderr: (t) => {
      err += t;
    },
  };
  const code = await runCli(args, io, '0.0.0-test');
  return { code, out, err };
}

describe('kasa merchant new', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'kasa-cli-'));
  const keystore = () => new Pkcs12MerchantKeystore(new SealedSecretStore(join(tmp, 'secrets')));

  it('writes both files with the defaults and never prints the password', async () => {
    const r = await run(
      ['merchant', 'new', '--out', 'm1', '--password', 'Pw-Unique-7731', '--ca-dir', 'ca'],
      tmp,
    );
    expect(r.code).toBe(0);
    expect(r.out).toContain('88820210000030001');
    expect(r.out + r.err).not.toContain('Pw-Unique-7731');
    const id = keystore().readIdentity(readFileSync(join(tmp, 'm1', 'register_ident_data.xml'), 'utf8'));
    expect(id.organizationUnit.cashRegisterType).toBe('STANDARD');
    const auth = readFileSync(join(tmp, 'm1', 'register_auth_data.xml'), 'utf8');
    expect((await keystore().open(auth, 'Pw-Unique-7731', 'Pw-Unique-7731')).alias).toBe('88820210000030001');
    expect(existsSync(join(tmp, 'ca', 'ca-cert.pem'))).toBe(true);
  });

  it('takes every option', async () => {
    const r = await run(
      [
        'merchant',
        'new',
        '--out',
        'm2',
        '--password',
        'x',
        '--ca-dir',
        'ca',
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
      ],
      tmp,
    );
    expect(r.code).toBe(0);
    const id = keystore().readIdentity(readFileSync(join(tmp, 'm2', 'register_ident_data.xml'), 'utf8'));
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
    [['--name', ''], '--name'],
    [['--colour', 'red'], '--colour'],
  ])('a bad flag or value %j exits 2 with one line naming it', async (extra, flag) => {
    const r = await run(
      ['merchant', 'new', '--out', 'bad', '--password', 'x', '--ca-dir', 'ca', ...extra],
      tmp,
    );
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toContain(flag);
    expect(existsSync(join(tmp, 'bad', 'register_auth_data.xml'))).toBe(false);
  });

  it('does not replace existing files without --force', async () => {
    expect(
      (await run(['merchant', 'new', '--out', 'mf', '--password', 'Pw-1234567', '--ca-dir', 'ca'], tmp)).code,
    ).toBe(0);
    const before = readFileSync(join(tmp, 'mf', 'register_auth_data.xml'), 'utf8');
    const again = await run(
      ['merchant', 'new', '--out', 'mf', '--password', 'Pw-1234567', '--ca-dir', 'ca'],
      tmp,
    );
    expect(again.code).toBe(2);
    expect(again.err).toContain('--force');
    expect(readFileSync(join(tmp, 'mf', 'register_auth_data.xml'), 'utf8')).toBe(before);
    const forced = await run(
      ['merchant', 'new', '--out', 'mf', '--password', 'Pw-1234567', '--ca-dir', 'ca', '--force'],
      tmp,
    );
    expect(forced.code).toBe(0);
    expect(readFileSync(join(tmp, 'mf', 'register_auth_data.xml'), 'utf8')).not.toBe(before);
  });

  it('a missing required flag exits 2 naming it', async () => {
    const r = await run(['merchant', 'new', '--out', 'bad2', '--ca-dir', 'ca'], tmp);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--password');
  });
});
