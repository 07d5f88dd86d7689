import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import {
  AUTH_FILE,
  createTestMerchant,
  DEFAULT_TEST_DIC,
  IDENTITY_FILE,
  type TestMerchantOptions,
  testMerchantProblem,
  writeTestMerchant,
} from '../adapters/merchant/test-merchant.js';
import { UsageError } from '../config/usage-error.js';
import { formatApiDateTime } from '../core/time.js';
import type { CliIo } from './program.js';

/**
 * Registers `kasa merchant new` (commander 14):
 *
 * `kasa merchant new --out DIR --password PW --ca-dir CA [--type STANDARD|PORTABLE] [--dic D]
 * [--register-code C] [--vat-payer|--no-vat-payer] [--valid-days N] [--name TEXT]`
 *
 * writes `register_auth_data.xml` and `register_ident_data.xml` in the official formats, the
 * certificate issued by the test CA in `CA` (created on first use). A bad flag or value is a
 * commander error or a {@link UsageError}: `runCli` ends with exit code 2 and one line naming it.
 * The password is never printed.
 */
export function registerMerchantCommands(program: Command, io: Pick<CliIo, 'stdout' | 'cwd'>): Command {
  const merchant = program.command('merchant').description('merchant identification and authentication data');

  merchant
    .command('new')
    .description('create a test merchant: identification + authentication data issued by a test CA')
    .requiredOption('--out <dir>', 'folder for register_auth_data.xml and register_ident_data.xml')
    .requiredOption('--password <pw>', 'keystore password of the new authentication data', nonEmpty)
    .requiredOption('--ca-dir <dir>', 'test CA folder (created on first use)')
    .addOption(
      new Option('--type <type>', 'cash register type').choices(['STANDARD', 'PORTABLE']).default('STANDARD'),
    )
    .option('--dic <dic>', `DIČ, 10 digits (default ${DEFAULT_TEST_DIC})`, digits(10, 10))
    .option(
      '--register-code <code>',
      'cash register code, 16-17 digits (default 888<DIČ>0001)',
      digits(16, 17),
    )
    .option('--vat-payer', 'VAT payer: identification data carry IcDph = SK<DIČ> (default)')
    .option('--no-vat-payer', 'not a VAT payer: no IcDph')
    .option('--valid-days <n>', 'certificate validity in days, 1-3650 (default 730)', validDays)
    .option('--name <text>', 'CorporateBodyFullName')
    .option('--force', 'replace existing files in --out')
    .action((opts: NewOptions) => {
      const options: TestMerchantOptions = {
        caDir: resolve(io.cwd, opts.caDir),
        password: opts.password,
        type: opts.type,
        ...(opts.dic === undefined ? {} : { dic: opts.dic }),
        ...(opts.registerCode === undefined ? {} : { registerCode: opts.registerCode }),
        ...(opts.vatPayer === undefined ? {} : { vatPayer: opts.vatPayer }),
        ...(opts.validDays === undefined ? {} : { validDays: opts.validDays }),
        ...(opts.name === undefined ? {} : { name: opts.name }),
      };
      const problem = testMerchantProblem(options);
      if (problem) throw new UsageError(`${problem[0]}: ${problem[1]}`);
      const outDir = resolve(io.cwd, opts.out);
      const existing = [AUTH_FILE, IDENTITY_FILE].filter((f) => existsSync(join(outDir, f)));
      if (existing.length > 0 && !opts.force) {
        // Another merchant's keystore is not replaced by accident.
        throw new UsageError(
          `--out ${opts.out} already holds ${existing.join(' and ')}; use --force to replace them`,
        );
      }
      const created = createTestMerchant(options);
      const written = writeTestMerchant(outDir, created);
      io.stdout(
        [
          `authentication data: ${written.authPath}`,
          `identification data: ${written.identityPath}`,
          `DIČ ${created.dic}, register code ${created.registerCode}, ${opts.type}, certificate valid until ${formatApiDateTime(created.notAfter)}`,
          `issued by the test CA in ${options.caDir} (trusted by kasa's SFS simulator, not by the real SFS)`,
          '',
        ].join('\n'),
      );
    });
  return merchant;
}

interface NewOptions {
  force?: boolean;
  out: string;
  password: string;
  caDir: string;
  type: 'STANDARD' | 'PORTABLE';
  dic?: string;
  registerCode?: string;
  vatPayer?: boolean;
  validDays?: number;
  name?: string;
}

function nonEmpty(value: string): string {
  if (value.length === 0) throw new InvalidArgumentError('must not be empty');
  return value;
}

function digits(min: number, max: number): (value: string) => string {
  return (value) => {
    if (!new RegExp(`^[0-9]{${min},${max}}$`).test(value)) {
      throw new InvalidArgumentError(
        min === max ? `must be ${min} digits` : `must be ${min} to ${max} digits`,
      );
    }
    return value;
  };
}

function validDays(value: string): number {
  const n = Number(value);
  if (!/^[0-9]+$/.test(value) || n < 1 || n > 3650) {
    throw new InvalidArgumentError('must be a whole number from 1 to 3650');
  }
  return n;
}
