import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerNopSimCommand } from '../../src/cli/nop-sim-command.js';
import { type CliIo, runCli } from '../../src/cli/program.js';
import { addServeOptions, readServeConfig } from '../../src/config/serve-config.js';
import { UsageError } from '../../src/config/usage-error.js';
import type { NopSimulator } from '../../src/simulators/nop/nop-simulator.js';
import { scan, waitFor } from '../support/fake-bank-app.js';
import { type Harness, startHarness } from '../support/kasa-harness.js';

/**
 * The `kasa nop-sim` recipe of docs/qr-payments.md, outside demo mode: a test merchant from
 * `kasa merchant new --ca-dir ca`, `kasa nop-sim --ca-dir ca`, and `kasa serve --no-demo --sfs-sim`
 * with the flags nop-sim prints plus `--nop-iban` and `--nop-creditor-name` (no settings record at all).
 * The flags are parsed as `kasa serve` parses them; the register is composed in-process.
 */
const PASSWORD = 'Recipe-Pw-42';
let cwd: string;
let sim: NopSimulator | undefined;
let stopSim: (() => void) | undefined;
let simRunning: Promise<unknown> | undefined;
let printed = '';
let h: Harness | undefined;

function io(out: string[]): CliIo {
  return { env: {}, cwd, stdout: (t) => out.push(t), stderr: () => undefined };
}

beforeAll(async () => {
  cwd = mkdtempSync(join(tmpdir(), 'kasa-nop-recipe-'));
  expect(
    await runCli(
      ['merchant', 'new', '--out', 'merchant', '--password', PASSWORD, '--ca-dir', 'ca'],
      io([]),
      '1.0.0',
    ),
  ).toBe(0);
  const out: string[] = [];
  const program = new Command('kasa').exitOverride();
  registerNopSimCommand(program, io(out), {
    onStarted: (s, stop) => {
      sim = s;
      stopSim = stop;
    },
  });
  simRunning = program.parseAsync(['nop-sim', '--ca-dir', 'ca'], { from: 'user' });
  await waitFor('nop-sim to start', () => (sim ? true : undefined));
  printed = out.join('');
});
afterAll(async () => {
  await h?.close();
  stopSim?.();
  await simRunning;
});

describe('the kasa nop-sim recipe (docs/qr-payments.md)', () => {
  it('kasa serve --no-demo --sfs-sim with the printed flags, --nop-iban and --nop-creditor-name takes a QR payment end to end', async () => {
    const line = /use it with: kasa serve (.*)$/m.exec(printed)?.[1];
    expect(line).toBeDefined();
    // The doc's serve line adds `--no-demo --sfs-sim` (no SFS URL: the embedded SFS simulator on purpose).
    const doc = readFileSync(new URL('../../docs/qr-payments.md', import.meta.url), 'utf8');
    expect(doc).toContain('\nkasa serve --no-demo --sfs-sim --nop-env int ');
    const argv = [
      '--no-demo',
      '--sfs-sim',
      ...line!.split(' '),
      '--nop-iban',
      'sk31 1200 0000 1987 4263 7541',
      '--nop-creditor-name',
      'Kaviareň u Mosta',
    ];
    const serve = new Command('serve').exitOverride();
    addServeOptions(serve);
    serve.parse(argv, { from: 'user' });
    const config = readServeConfig(serve, { HOME: cwd }, cwd);
    expect(config).toMatchObject({
      demo: false,
      sfsSim: true,
      sfsUrl: undefined,
      nopEnv: 'int',
      nopIban: 'SK3112000000198742637541',
      nopCreditorName: 'Kaviaren u Mosta',
    });
    expect([...config.fixed]).toEqual(expect.arrayContaining(['nopIban', 'nopCreditorName', 'nopEnv']));

    // The flags as parsed (what they fix, and by which flag); the harness adds port 0, a
    // virtual printer and a temporary mark folder.
    const parsed = {
      demo: config.demo,
      sfsSim: config.sfsSim,
      fixed: config.fixed,
      ...(config.fixedBy ? { fixedBy: config.fixedBy } : {}),
    };
    // Without --sfs-sim the same start is refused (`kasa serve` exits 2).
    await expect(
      startHarness({
        demo: false,
        dataDir: join(cwd, 'refused'),
        config: { ...parsed, sfsSim: false },
      }),
    ).rejects.toBeInstanceOf(UsageError);
    h = await startHarness({
      demo: false,
      dataDir: join(cwd, 'data'),
      qrJobs: { tickMs: 200 },
      config: {
        ...parsed,
        nopEnv: config.nopEnv,
        nopUrl: config.nopUrl,
        nopMqttUrl: config.nopMqttUrl,
        nopTrust: config.nopTrust,
        nopIban: config.nopIban,
        nopCreditorName: config.nopCreditorName,
      },
    });
    const stored = await h.post('/api/merchant/store', {
      identificationData: readFileSync(join(cwd, 'merchant', 'register_ident_data.xml'), 'utf8'),
      authenticationData: readFileSync(join(cwd, 'merchant', 'register_auth_data.xml'), 'utf8'),
      keyStorePassword: PASSWORD,
    });
    expect(stored.body.resultCode).toBe(0);
    await waitFor('the NOP session', async () =>
      (await h!.get('/api/qrpayment/notifier')).body.notifier.connected ? true : undefined,
    );

    const created = await h.post('/api/qrpayment/create', { amount: 3.2 });
    expect(created.body).toMatchObject({
      resultCode: 0,
      qrPayment: { state: 'PENDING', environment: 'custom' },
    });
    const id = created.body.qrPayment.qrPaymentId as string;
    const png = await h.kasa.app.inject({ method: 'GET', url: `/api/qrpayment/${id}/qr.png` });
    const order = scan(new Uint8Array(png.rawPayload));
    expect(order).toMatchObject({
      iban: 'SK3112000000198742637541',
      creditorName: 'Kaviaren u Mosta',
      amount: '3.20',
    });

    // The doc's "pay a QR" step: the control API with the link in the QR.
    const paid = await fetch(`${sim!.controlUrl}/__sim/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ payme: created.body.qrPayment.payme }),
    });
    expect(paid.status).toBe(200);
    await waitFor(`${id} to be PAID`, async () =>
      (await h!.get(`/api/qrpayment/${id}`)).body.qrPayment.state === 'PAID' ? true : undefined,
    );
  });

  it('a bad --nop-iban or --nop-creditor-name is a usage error naming the flag', () => {
    const parse = (argv: string[]) => {
      const serve = new Command('serve').exitOverride().configureOutput({ writeErr: () => undefined });
      addServeOptions(serve);
      serve.parse(argv, { from: 'user' });
    };
    expect(() => parse(['--nop-iban', 'SK3112000000198742637542'])).toThrow(/--nop-iban.*mod-97/);
    expect(() => parse(['--nop-creditor-name', '€€€'])).toThrow(/--nop-creditor-name/);
  });
});
