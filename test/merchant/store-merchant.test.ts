import { verify, X509Certificate } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestMerchant,
  demoMerchantFiles,
  type TestMerchant,
} from '../../src/adapters/merchant/test-merchant.js';
import { FiscalError } from '../../src/core/fiscal-error.js';
import { ensureDemoMerchant } from '../../src/core/services/ensure-demo-merchant.js';
import { getMerchant } from '../../src/core/services/get-merchant.js';
import { merchantCertificateStatus } from '../../src/core/services/merchant-certificate-status.js';
import { ManualClock, type MerchantRegisterOptions, merchantRegister } from '../support/merchant-register.js';
import { hasOfficialFixtures, official, SHARED_MISSING } from '../support/shared-fixtures.js';

const DAY = 86_400_000;
const PW = 'Zx-Distinct-Pw-4471!';

async function failure(p: Promise<unknown> | (() => unknown)): Promise<{ code: string; field?: unknown }> {
  try {
    await (typeof p === 'function' ? p() : p);
    return { code: 'none' };
  } catch (e) {
    if (!(e instanceof FiscalError)) throw e;
    return e.details?.field === undefined
      ? { code: e.resultName }
      : { code: e.resultName, field: e.details.field };
  }
}

const request = (m: TestMerchant, password = PW) => ({
  identificationData: m.identityXml,
  authenticationData: m.authXml,
  keyStorePassword: password,
});

function sealedFiles(dataDir: string): string[] {
  const dir = join(dataDir, 'secrets');
  return existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.sealed')) : [];
}

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const r of open.splice(0)) await r.close().catch(() => undefined);
});

/** A register over the real CHDÚ storage, closed after the test. */
async function register(options: MerchantRegisterOptions = {}) {
  const r = await merchantRegister(options);
  open.push(r);
  return r;
}

async function restart(r: Awaited<ReturnType<typeof merchantRegister>>, hostSecret?: () => Uint8Array) {
  const again = await r.restart(hostSecret);
  open.push(again);
  return again;
}

let caDir: string;
let merchantA: TestMerchant;
let merchantA2: TestMerchant;
let merchantOtherDic: TestMerchant;
let merchantOtherCode: TestMerchant;

beforeAll(() => {
  caDir = join(mkdtempSync(join(tmpdir(), 'kasa-ca-')), 'ca');
  merchantA = createTestMerchant({ caDir, password: PW });
  merchantA2 = createTestMerchant({ caDir, password: 'renewed-pw' });
  merchantOtherDic = createTestMerchant({ caDir, password: PW, dic: '2021000014' });
  merchantOtherCode = createTestMerchant({ caDir, password: PW, registerCode: '88820210000030002' });
});

describe('store merchant', () => {
  it('stores generated files, answers get and status, and signs with the stored key', async () => {
    const r = await register();
    expect((await failure(() => r.session.currentSigner())).code).toBe('MERCHANT_CERTIFICATE_ERROR');

    const view = await r.store.execute(request(merchantA));
    expect(view).toMatchObject({
      id: 1,
      dic: '2021000003',
      icDph: 'SK2021000003',
      demo: false,
      organizationUnit: { cashRegisterCode: '88820210000030001', cashRegisterType: 'STANDARD' },
      certificate: { state: 'OK', showWarning: false, daysLeft: 729 },
    });
    expect(view.organizationUnit.location?.physicalAddress.street).toBe('Testovacia');
    expect(getMerchant(r)).toEqual(view);
    expect(merchantCertificateStatus(r)).toMatchObject({
      state: 'OK',
      usable: true,
      cashRegisterCode: '88820210000030001',
    });

    const usable = r.session.currentSigner();
    expect(usable.recordNo).toBe(1);
    const data = new TextEncoder().encode('2021000003|88820210000030001|PD|1|2026-11-22T10:00:00+01:00|1.00');
    const cert = new X509Certificate(usable.signer.certificateDer);
    expect(verify('sha256', data, cert.publicKey, usable.signer.sign(data))).toBe(true);
    expect(r.session.refusal()).toBeUndefined();
    expect(sealedFiles(r.dataDir)).toEqual([`merchant-${view.certificate.sha256}.p12.sealed`]);
  });

  it('renews with the same DIČ and register code: a new record, the new key in use, the old record unchanged', async () => {
    const r = await register();
    const first = await r.store.execute(request(merchantA));
    const renewed = await r.store.execute(request(merchantA2, 'renewed-pw'));
    expect(renewed.id).toBe(2);
    expect(renewed.certificate.sha256).not.toBe(first.certificate.sha256);
    expect(r.session.currentSigner().recordNo).toBe(2);
    expect(Buffer.from(r.session.currentSigner().signer.certificateDer)).toEqual(
      new X509Certificate(merchantA2.certificatePem).raw,
    );
    const old = await r.journal.get(1);
    expect(old?.type === 'merchant' && old.body.certificateSha256).toBe(first.certificate.sha256);
  });

  it('refuses another DIČ with 401 and stores nothing', async () => {
    const r = await register();
    await r.store.execute(request(merchantA));
    const before = r.journal.head()?.recordNo;
    expect(await failure(r.store.execute(request(merchantOtherDic)))).toEqual({
      code: 'MERCHANT_DIFFERENT_DIC',
      field: 'IdentityData/Dic',
    });
    expect(r.journal.head()?.recordNo).toBe(before);
    expect(sealedFiles(r.dataDir)).toHaveLength(1);
    expect(r.session.currentSigner().merchant.dic).toBe('2021000003');
  });

  it('refuses identification data of another register with 400 naming the register code', async () => {
    const r = await register();
    const mixed = { ...request(merchantA), identificationData: merchantOtherCode.identityXml };
    expect(await failure(r.store.execute(mixed))).toEqual({
      code: 'MERCHANT_WRONG_FORMAT',
      field: 'IdentityData/OrganizationUnit/CashRegisterCode',
    });
    expect(r.journal.head()).toBeUndefined();
  });

  it('leaves nothing behind when the CHDÚ cannot take the record (full: 202)', async () => {
    const r = await register({ capacityBlocks: 4 }); // a merchant record needs about ten blocks
    expect((await failure(r.store.execute(request(merchantA)))).code).toBe('CHDU_WRITE_LIMIT');
    expect(r.journal.head()).toBeUndefined();
    expect(sealedFiles(r.dataDir)).toEqual([]);
    expect(r.index.currentMerchant()).toBeUndefined();
    expect(r.session.refusal()?.resultName).toBe('MERCHANT_CERTIFICATE_ERROR');
  });

  it('reports EXPIRES_SOON with showWarning inside the last 30 days, then EXPIRED and refuses with 405 (injected clock)', async () => {
    const clock = new ManualClock(new Date('2026-11-22T09:00:00Z'));
    const m = createTestMerchant({ caDir, password: PW, now: clock.now(), validDays: 100 });
    const r = await register({ clock });
    await r.store.execute(request(m));
    expect(merchantCertificateStatus(r)).toMatchObject({ state: 'OK', showWarning: false, daysLeft: 100 });

    clock.current = new Date(m.notAfter.getTime() - 12 * DAY - 60_000);
    expect(merchantCertificateStatus(r)).toMatchObject({
      state: 'EXPIRES_SOON',
      status: 'EXPIRES_SOON',
      showWarning: true,
      daysLeft: 12,
      usable: true,
    });
    expect(r.session.probe.check()).toMatchObject({ state: 'WARNING', reasonCode: 0 });
    expect(r.session.currentSigner().recordNo).toBe(1);

    clock.current = new Date(m.notAfter.getTime() + 1000);
    expect(merchantCertificateStatus(r)).toMatchObject({
      state: 'EXPIRED',
      showWarning: true,
      daysLeft: 0,
      usable: false,
      problemCode: 405,
    });
    expect((await failure(() => r.session.currentSigner())).code).toBe('MERCHANT_CERTIFICATE_EXPIRED');
    expect(r.session.probe.check()).toMatchObject({ state: 'ERROR', reasonCode: 405 });
    expect(getMerchant(r).certificate.state).toBe('EXPIRED');
  });

  it('loads the merchant again after a restart with no password; another host cannot (402)', async () => {
    const r = await register();
    const stored = await r.store.execute(request(merchantA));

    const again = await restart(r);
    const usable = again.session.currentSigner();
    expect(usable.recordNo).toBe(stored.id);
    const data = new TextEncoder().encode('after restart');
    expect(
      verify(
        'sha256',
        data,
        new X509Certificate(usable.signer.certificateDer).publicKey,
        usable.signer.sign(data),
      ),
    ).toBe(true);
    expect(getMerchant(again)).toEqual(stored);

    const moved = await restart(again, () => new TextEncoder().encode('another-machine-secret-xyz'));
    expect(moved.session.refusal()?.resultName).toBe('MERCHANT_CERTIFICATE_ERROR');
    expect(merchantCertificateStatus(moved)).toMatchObject({ usable: false, problemCode: 402, state: 'OK' });
  });

  it('consistency probe: a lost keystore fails with 402; restoring it clears the refusal without a restart', async () => {
    const r = await register();
    const view = await r.store.execute(request(merchantA));
    await r.session.consistencyProbe.run();
    const sealed = join(r.dataDir, 'secrets', `merchant-${view.certificate.sha256}.p12.sealed`);
    const saved = readFileSync(sealed);
    rmSync(sealed);
    const again = await restart(r);
    expect((await failure(async () => again.session.consistencyProbe.run())).code).toBe(
      'MERCHANT_CERTIFICATE_ERROR',
    );
    expect(again.session.refusal()?.resultCode).toBe(402);
    writeFileSync(sealed, saved, { mode: 0o600 });
    await again.session.consistencyProbe.run();
    expect(again.session.refusal()).toBeUndefined();
    expect(again.session.currentSigner().recordNo).toBe(1);
  });

  it('answers 402 for get and status when no merchant is stored', async () => {
    const r = await register();
    expect((await failure(() => getMerchant(r))).code).toBe('MERCHANT_CERTIFICATE_ERROR');
    expect((await failure(() => merchantCertificateStatus(r))).code).toBe('MERCHANT_CERTIFICATE_ERROR');
    expect(r.session.probe.check()).toMatchObject({ state: 'ERROR', reasonCode: 402 });
  });

  it('never lets the password out: responses, errors, journal bytes, secrets files', async () => {
    const r = await register();
    const seen: string[] = [];
    seen.push(JSON.stringify(await r.store.execute(request(merchantA))));
    seen.push(JSON.stringify(getMerchant(r)), JSON.stringify(merchantCertificateStatus(r)));
    seen.push(JSON.stringify(r.session.probe.check()), JSON.stringify(r.session.currentSigner()));
    for (const bad of [
      { ...request(merchantA), keyStorePassword: `${PW}x` },
      { ...request(merchantA), privateKeyPassword: `${PW}y` },
      request(merchantOtherDic),
    ]) {
      try {
        await r.store.execute(bad);
      } catch (e) {
        seen.push(String(e), JSON.stringify(e), JSON.stringify((e as FiscalError).details ?? {}));
      }
    }
    for (const text of seen) expect(text).not.toContain(PW);
    const needles = [
      Buffer.from(PW, 'utf8'),
      Buffer.from(PW, 'utf16le'),
      Buffer.from(PW, 'utf16le').swap16(),
    ];
    const haystacks = [readFileSync(r.imagePath), readFileSync(join(r.dataDir, 'index.sqlite'))];
    for (const name of readdirSync(join(r.dataDir, 'secrets')))
      haystacks.push(readFileSync(join(r.dataDir, 'secrets', name)));
    for (const hay of haystacks) for (const needle of needles) expect(hay.includes(needle)).toBe(false);
  });

  it('creates a demo merchant on an empty register only, marked demo', async () => {
    const r = await register();
    const demo = await ensureDemoMerchant({
      index: r.index,
      store: r.store,
      createFiles: () => demoMerchantFiles(r.dataDir),
    });
    expect(demo).toMatchObject({ demo: true, id: 1 });
    expect(existsSync(join(r.dataDir, 'demo-ca', 'ca-cert.pem'))).toBe(true);
    expect(r.session.currentSigner().merchant.demo).toBe(true);
    expect(
      await ensureDemoMerchant({
        index: r.index,
        store: r.store,
        createFiles: () => demoMerchantFiles(r.dataDir),
      }),
    ).toBeUndefined();
    const again = await restart(r);
    expect(again.session.currentSigner().merchant.demo).toBe(true);
  });

  it('another DIČ on a demo register: the 401 says it is the demo merchant and how real work starts (ADR 0006)', async () => {
    const r = await register();
    await ensureDemoMerchant({
      index: r.index,
      store: r.store,
      createFiles: () => demoMerchantFiles(r.dataDir),
    });
    const e = await r.store.execute(request(merchantOtherDic)).catch((x: unknown) => x);
    expect(FiscalError.is(e, 'MERCHANT_DIFFERENT_DIC')).toBe(true);
    expect((e as FiscalError).message).toContain('the demo merchant');
    expect((e as FiscalError).message).toContain('--no-demo on a new, empty data dir');
  });
});

describe.skipIf(!hasOfficialFixtures)(
  `store with the official SFS files (${hasOfficialFixtures ? 'present' : SHARED_MISSING})`,
  () => {
    const identity = () =>
      readFileSync(
        official('identity-data', 'Identifikacne_udaje_standardna_platitel_DPH_v2.0_20190327.xml'),
        'utf8',
      );
    const auth = (file: string) => readFileSync(official('auth-data', file), 'utf8');
    const files = [
      ['disig_valid_until_20261115.xml', '88812345678900001'],
      ['disig_2021.xml', 'Heslo123'],
      ['disig_expired_2021.xml', 'Heslo123'],
      ['ica_2019.xml', 'Heslo123'],
      ['invalid_2019.xml', 'Heslo123'],
    ] as const;

    it.each(files)(
      '%s opens with its password and is refused with 405 (expired); nothing stored',
      async (file, password) => {
        const r = await register({ clock: new ManualClock(new Date('2026-11-22T12:00:00Z')) });
        const req = {
          identificationData: identity(),
          authenticationData: auth(file),
          keyStorePassword: password,
        };
        expect((await failure(r.store.execute(req))).code).toBe('MERCHANT_CERTIFICATE_EXPIRED');
        expect(r.journal.head()).toBeUndefined();
        expect(sealedFiles(r.dataDir)).toEqual([]);
      },
    );

    it('the 2024 Disig file stores while its certificate was valid (clock injected to 2026-06-01)', async () => {
      const r = await register({ clock: new ManualClock(new Date('2026-06-01T10:00:00Z')) });
      const view = await r.store.execute({
        identificationData: identity(),
        authenticationData: auth('disig_valid_until_20261115.xml'),
        keyStorePassword: '88812345678900001',
      });
      expect(view).toMatchObject({
        dic: '1234567890',
        certificate: { state: 'OK', expirationDate: '15.11.2026 11:03:57' },
      });
      expect(view.certificate.issuer).toContain('TEST eKasa CA');
    });

    it('a wrong password gives 403, a truncated Base64 403 or 404, the incorrect identification 400 naming the field', async () => {
      const r = await register();
      const base = {
        identificationData: identity(),
        authenticationData: auth('disig_2021.xml'),
        keyStorePassword: 'Heslo123',
      };
      expect((await failure(r.store.execute({ ...base, keyStorePassword: 'heslo123' }))).code).toBe(
        'MERCHANT_WRONG_PASSWORD_OR_CORRUPTED_FILE',
      );
      const data = /<eu:Data>([^<]*)</.exec(base.authenticationData)![1]!;
      const truncated = base.authenticationData.replace(data, data.slice(0, 1000));
      expect(['MERCHANT_WRONG_PASSWORD_OR_CORRUPTED_FILE', 'MERCHANT_PARSE_ERROR']).toContain(
        (await failure(r.store.execute({ ...base, authenticationData: truncated }))).code,
      );
      const wrongIdentity = readFileSync(
        official('identity-data', 'Nekorektne_identifikacne_udaje_v2.0_20190327.xml'),
        'utf8',
      );
      expect(await failure(r.store.execute({ ...base, identificationData: wrongIdentity }))).toEqual({
        code: 'MERCHANT_WRONG_FORMAT',
        field: 'IdentityData/Dic',
      });
      expect(r.journal.head()).toBeUndefined();
    });
  },
);
