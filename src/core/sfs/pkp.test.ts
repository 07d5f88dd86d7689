import { execFileSync } from 'node:child_process';
import { verify, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testMerchant } from '../../../test/support/merchant-keys.js';
import { hasOfficialFixtures, official, SHARED_MISSING } from '../../../test/support/shared-fixtures.js';
import { okpFromPkp, okpMatches } from './okp.js';
import { computePkp, PKP_PATTERN, pkpBaseString } from './pkp.js';

// SFS spec §2.2: the spec's test vector, which is the official VK sample (priklad_vklad).
const VK_BASE = '1234567890|88812345678900001|VK|1|2019-01-31T12:01:14+01:00|100.00';
const VK_PKP =
  'soFHZ6XRckBVEJWd01KGFDcUKjtYVnfOxucypKv69wzsHbGP83rOmE/Inq0/CHnPM2Ip+yL1u9ccTRQVatOOubeLrkCjbwZvpPTz5lxCu9EJ9DyGODTdEK1S42O+wjIoUBISDdHBR2jBpFkGLScjkcQpyPgOYBALrny4lNAJFkdtPoSASqcVmRrZShYS4LIxjJfR3nHVXoQ6+McF5LRX0nMc/fv0H8OlRbdX5Dp34Nny9rl//cswaeXa13IJmTtYnrQg1k2vMcTYT6pgLRHttahiYd/gdqrRGrP4te0ouEY2n610SxfuHLhfQDZfVihF7vav+Jvb1zaqNT81n+aD5w==';
const VK_OKP = 'B1873CE0-46DB4D14-EFC72036-62C71AE1-71628710';

const vkFields = {
  Dic: '1234567890',
  CashRegisterCode: '88812345678900001',
  ReceiptType: 'VK',
  ReceiptNumber: '1',
  CreateDate: '2019-01-31T12:01:14+01:00',
  Amount: '100.00',
} as const;

describe('PKP base string', () => {
  it('joins the six fields in the spec order, values as written', () => {
    expect(pkpBaseString(vkFields)).toBe(VK_BASE);
    expect(
      pkpBaseString({
        Dic: '2004567890',
        CashRegisterCode: '99920045678900001',
        ReceiptType: 'PD',
        ReceiptNumber: '23',
        CreateDate: '2018-02-13T19:34:14+01:00',
        Amount: '237.23',
      }),
    ).toBe('2004567890|99920045678900001|PD|23|2018-02-13T19:34:14+01:00|237.23');
  });
});

describe('OKP', () => {
  it('gives the published OKP from the published PKP of the VK sample (lower case)', () => {
    expect(okpFromPkp(VK_PKP)).toBe(VK_OKP.toLowerCase());
    expect(okpMatches(VK_OKP, VK_PKP)).toBe(true);
    expect(okpMatches('b1873ce0-46db4d14-efc72036-62c71ae1-71628711', VK_PKP)).toBe(false);
  });

  it.skipIf(!hasOfficialFixtures)(
    `matches the OKP of every official receipt sample ${hasOfficialFixtures ? '' : ` (skipped: ${SHARED_MISSING})`}`,
    () => {
      for (const name of [
        'vklad',
        'vyber',
        'uhrada_faktury',
        'paragon',
        'neplatny_doklad',
        'pokladnicny_doklad_platitel_DPH',
      ]) {
        const xml = readFileSync(official('soap-samples', `priklad_${name}_20190131.xml`), 'utf8');
        const pkp = /<ekasa:PKP[^>]*>([^<]+)</.exec(xml)![1]!;
        const okp = /<ekasa:OKP[^>]*>([^<]+)</.exec(xml)![1]!;
        expect(okpFromPkp(pkp), name).toBe(okp);
      }
    },
  );

  it.skipIf(!hasOfficialFixtures)(
    'verifies the published VK PKP with the certificate of the official sample',
    () => {
      const xml = readFileSync(official('soap-samples', 'priklad_vklad_20190131.xml'), 'utf8');
      const der = /<wsse:BinarySecurityToken[^>]*>([^<]+)</.exec(xml)![1]!;
      const cert = new X509Certificate(Buffer.from(der, 'base64'));
      expect(verify('sha256', Buffer.from(VK_BASE), cert.publicKey, Buffer.from(VK_PKP, 'base64'))).toBe(
        true,
      );
    },
  );
});

describe('PKP with a generated certificate', () => {
  it('is 344 Base64 characters that openssl dgst -sha256 -verify accepts over the exact base string', () => {
    const merchant = testMerchant();
    const fields = {
      ...vkFields,
      ReceiptType: 'PD',
      ReceiptNumber: '7',
      CreateDate: '2026-03-02T10:15:30+01:00',
      Amount: '8.17',
    } as const;
    const pkp = computePkp(fields, merchant.signer);
    expect(pkp).toMatch(PKP_PATTERN);

    const dir = mkdtempSync(join(tmpdir(), 'kasa-pkp-'));
    writeFileSync(join(dir, 'base.txt'), pkpBaseString(fields));
    writeFileSync(join(dir, 'pkp.bin'), Buffer.from(pkp, 'base64'));
    writeFileSync(
      join(dir, 'pub.pem'),
      new X509Certificate(merchant.certPem).publicKey.export({ type: 'spki', format: 'pem' }),
    );
    const verifyWith = (file: string) =>
      execFileSync(
        'openssl',
        [
          'dgst',
          '-sha256',
          '-verify',
          join(dir, 'pub.pem'),
          '-signature',
          join(dir, 'pkp.bin'),
          join(dir, file),
        ],
        {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
    expect(verifyWith('base.txt').trim()).toBe('Verified OK');

    // One changed value must not verify: the signature covers the exact base string.
    writeFileSync(join(dir, 'other.txt'), pkpBaseString({ ...fields, Amount: '8.18' }));
    expect(() => verifyWith('other.txt')).toThrow();
  });
});
