import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestMerchant } from '../../src/adapters/merchant/test-merchant.js';
import { startServeChild } from '../support/serve-child.js';

const PW = 'E2e-Distinct-Pw-8846';

describe('merchant across a restart of kasa serve', () => {
  it('is loaded again with no password typed in, and the password is nowhere on disk or in answers', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'kasa-e2e-m-')), 'data');
    const merchant = createTestMerchant({ caDir: join(dataDir, '..', 'ca'), password: PW });
    const args = ['--port', '0', '--data-dir', dataDir, '--no-demo', '--sfs-sim', '--log-level', 'info'];
    const seen: string[] = [];

    const first = await startServeChild(args);
    try {
      const none = await fetch(`${first.url}/api/merchant/status`);
      expect((await none.json()) as unknown).toMatchObject({ resultCode: 402 });
      const stored = await fetch(`${first.url}/api/merchant/store`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          identificationData: merchant.identityXml,
          authenticationData: merchant.authXml,
          keyStorePassword: PW,
        }),
      });
      const body = await stored.text();
      seen.push(body);
      expect(JSON.parse(body)).toMatchObject({
        resultCode: 0,
        merchant: { id: 1, dic: '2021000003', demo: false },
      });
    } finally {
      expect(await first.stop()).toBe(0);
      seen.push(first.stdout(), first.stderr());
    }

    const second = await startServeChild(args);
    try {
      const status = await fetch(`${second.url}/api/merchant/status`);
      const text = await status.text();
      seen.push(text);
      expect(JSON.parse(text)).toMatchObject({
        resultCode: 0,
        state: 'OK',
        usable: true,
        cashRegisterCode: '88820210000030001',
      });
      const register = (await (await fetch(`${second.url}/api/status/get`)).json()) as { state: string };
      expect(register.state).toBe('READY');
    } finally {
      expect(await second.stop()).toBe(0);
      seen.push(second.stdout(), second.stderr());
    }

    for (const text of seen) expect(text).not.toContain(PW);
    const files = [
      join(dataDir, 'chdu.img'),
      ...readdirSync(join(dataDir, 'secrets')).map((n) => join(dataDir, 'secrets', n)),
    ];
    for (const file of files) {
      const bytes = readFileSync(file);
      expect(bytes.includes(Buffer.from(PW, 'utf8'))).toBe(false);
      expect(bytes.includes(Buffer.from(PW, 'utf16le'))).toBe(false);
    }
  });
});
