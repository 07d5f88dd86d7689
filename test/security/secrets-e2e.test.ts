import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/adapters/logging/logger.js';
import { readPkcs12 } from '../../src/adapters/merchant/pkcs12-reader.js';
import { createTestMerchant, DEMO_CA_DIR } from '../../src/adapters/merchant/test-merchant.js';
import { runCli } from '../../src/cli/program.js';
import { composeKasa, type Kasa } from '../../src/compose/compose-kasa.js';
import { defaultServeConfig } from '../../src/config/serve-config.js';
import type { Json } from '../support/kasa-harness.js';
import { hasOfficialFixtures, official, SHARED_MISSING } from '../support/shared-fixtures.js';
import { TOKEN } from './secure-register.js';

/**
 * Capability 9: no password or key material in logs, responses, the CHDÚ export or the index after a
 * full run — merchant stored from files with passwords, documents online and offline, errors.
 * The artefacts are searched byte for byte for every secret in several spellings.
 */
const PASSWORD = 'Pw-Leak-Canary-7Q2x9';
const OFFICIAL_PASSWORD = 'Heslo123'; // published password of four official files (fixtures README)

let dataDir: string;
let logFile: string;
let kasa: Kasa;
const responses: string[] = [];
let exportText = '';
let privateKeyDer: Uint8Array;
let keystoreBase64: string;

async function call(
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await kasa.app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${TOKEN}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  responses.push(JSON.stringify(res.headers), res.body);
  return res.json() as Json;
}

const pd = (amount = 1) => ({
  type: 'PD',
  amount,
  documentEntries: [{ name: 'Rožok', price: amount, quantity: 1, vatRate: 'VAT_5', itemType: 'SALE' }],
  payments: { Hotovosť: amount },
});

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'kasa-secrets-'));
  logFile = join(dataDir, '..', `${dataDir.split('/').pop()}.log`);
  const logger = createLogger('trace', pino.destination({ dest: logFile, sync: true }));
  kasa = await composeKasa(
    defaultServeConfig(dataDir, {
      port: 0,
      sfsTimeoutMs: 1500,
      demo: false,
      token: TOKEN,
      logLevel: 'trace',
    }),
    { logger },
  );
  await kasa.app.ready();

  // Official files: each opens with its published password and ends in 405 (expired); wrong ones 403.
  if (hasOfficialFixtures) {
    const identity = readFileSync(
      official('identity-data', 'Identifikacne_udaje_standardna_platitel_DPH_v2.0_20190327.xml'),
      'utf8',
    );
    for (const file of ['disig_2021.xml', 'disig_expired_2021.xml', 'ica_2019.xml', 'invalid_2019.xml']) {
      const authenticationData = readFileSync(official('auth-data', file), 'utf8');
      expect(
        (
          await call('POST', '/api/merchant/store', {
            identificationData: identity,
            authenticationData,
            keyStorePassword: OFFICIAL_PASSWORD,
          })
        ).resultCode,
      ).toBe(405);
      expect(
        (
          await call('POST', '/api/merchant/store', {
            identificationData: identity,
            authenticationData,
            keyStorePassword: `${OFFICIAL_PASSWORD}x`,
            privateKeyPassword: PASSWORD,
          })
        ).resultCode,
      ).toBe(403);
    }
  }

  // A merchant the embedded simulator accepts, with a password of our own.
  const merchant = createTestMerchant({ caDir: join(dataDir, DEMO_CA_DIR), password: PASSWORD });
  keystoreBase64 = /<eu:Data>([^<]*)</.exec(merchant.authXml)![1]!;
  privateKeyDer = readPkcs12(Buffer.from(keystoreBase64, 'base64'), PASSWORD, PASSWORD).keys[0]!.pkcs8Der;
  const wrong = await call('POST', '/api/merchant/store', {
    identificationData: merchant.identityXml,
    authenticationData: merchant.authXml,
    keyStorePassword: 'not-it',
    privateKeyPassword: PASSWORD,
  });
  expect(wrong.resultCode).toBe(403);
  const stored = await call('POST', '/api/merchant/store', {
    identificationData: merchant.identityXml,
    authenticationData: merchant.authXml,
    keyStorePassword: PASSWORD,
  });
  expect(stored.resultCode).toBe(0);

  // Documents online, cash, offline, and errors of every kind.
  expect((await call('POST', '/api/document/store', pd(1))).resultCode).toBe(0);
  expect((await call('POST', '/api/cash', { amount: 5 })).resultCode).toBe(0);
  await kasa.parts.sfsSimulator!.goOffline();
  const offline = await call('POST', '/api/document/store', pd(2));
  expect(offline.resultCode).toBe(0);
  expect(offline.document.uuid).toBeUndefined();
  await kasa.parts.sfsSimulator!.goOnline();
  expect((await call('POST', '/api/document/store', { ...pd(3), amount: 4 })).resultCode).toBe(701);
  expect(
    (await call('POST', '/api/document/store', pd(1), { authorization: `Bearer ${PASSWORD}` })).resultCode,
  ).toBe(-1);
  await call('POST', '/%61pi/cash', { amount: 1, keyStorePassword: PASSWORD });
  await call('POST', '/api/cash', { amount: 1 }, { 'content-type': 'text/plain' });
  for (const url of ['/api/merchant/get', '/api/document/get']) await call('POST', url, {});
  for (const url of ['/api/merchant/status', '/api/status/get', '/api/chduinfo', '/api/version'])
    await call('GET', url);
  await kasa.close();

  // The CHDÚ export, as `kasa chdu export` writes it.
  const err: string[] = [];
  const out: string[] = [];
  const io = {
    env: {},
    cwd: dataDir,
    stdout: (t: string) => void out.push(t),
    stderr: (t: string) => void err.push(t),
  };
  expect(await runCli(['chdu', 'export', '--format', 'jsonl', '--data-dir', dataDir], io, '0.0.0')).toBe(0);
  exportText = out.join('');
}, 120_000);

afterAll(async () => kasa?.close().catch(() => undefined));

/** Every spelling of a secret worth looking for: text, Base64, hex, and raw bytes. */
function spellings(secret: Uint8Array | string): Buffer[] {
  const bytes = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : Buffer.from(secret);
  const out = [bytes, Buffer.from(bytes.toString('base64')), Buffer.from(bytes.toString('hex'))];
  if (typeof secret === 'string')
    out.push(Buffer.from(secret, 'utf16le'), Buffer.from(JSON.stringify(secret)));
  else {
    // A stretch from the middle, so a partial or re-wrapped copy (PEM lines) is found too.
    const middle = bytes.subarray(bytes.length / 2 - 24, bytes.length / 2 + 24);
    out.push(
      middle,
      Buffer.from(middle.toString('base64').slice(4, 40)),
      Buffer.from(middle.toString('hex')),
    );
  }
  return out;
}

function artefacts(): Array<[string, Buffer]> {
  const files: Array<[string, Buffer]> = [
    ['log', readFileSync(logFile)],
    ['responses', Buffer.from(responses.join('\n'))],
    ['chdu export', Buffer.from(exportText)],
    ['CHDÚ image', readFileSync(join(dataDir, 'chdu.img'))],
  ];
  for (const name of readdirSync(dataDir).filter((n) => n.startsWith('index.sqlite'))) {
    files.push([name, readFileSync(join(dataDir, name))]);
  }
  return files;
}

describe(`no secret in logs, responses, the CHDÚ export, the CHDÚ or the index (official files: ${hasOfficialFixtures ? 'used' : SHARED_MISSING})`, () => {
  it('the run produced every artefact', () => {
    expect(readFileSync(logFile, 'utf8')).toContain('"msg":"request"');
    expect(exportText.split('\n').filter(Boolean).length).toBeGreaterThanOrEqual(5);
    expect(existsSync(join(dataDir, 'index.sqlite'))).toBe(true);
    // The sealed secret really holds the keystore (so looking for it below means something).
    expect(readdirSync(join(dataDir, 'secrets')).some((n) => n.endsWith('.sealed'))).toBe(true);
  });

  it('passwords, the token, the private key, the keystore and the sealed secrets appear nowhere', () => {
    const sealed = readdirSync(join(dataDir, 'secrets'))
      .filter((n) => n.endsWith('.sealed'))
      .map((n) => readFileSync(join(dataDir, 'secrets', n)));
    const secrets: Array<[string, Uint8Array | string]> = [
      ['keystore password', PASSWORD],
      ['token', TOKEN],
      ['private key (PKCS#8 DER)', privateKeyDer],
      ['keystore', Buffer.from(keystoreBase64, 'base64')],
      ...sealed.map((s, i): [string, Uint8Array] => [`sealed secret ${i}`, s]),
      ...(hasOfficialFixtures ? [['official password', OFFICIAL_PASSWORD] as [string, string]] : []),
    ];
    const found: string[] = [];
    for (const [where, bytes] of artefacts()) {
      for (const [what, secret] of secrets) {
        for (const needle of spellings(secret)) if (bytes.includes(needle)) found.push(`${what} in ${where}`);
      }
    }
    expect([...new Set(found)]).toEqual([]);
  });
});
