import { join } from 'node:path';
import { expect } from 'vitest';
import { createTestMerchant, DEMO_CA_DIR } from '../../src/adapters/merchant/test-merchant.js';
import type { SfsExchangeRecord } from '../../src/core/journal/records.js';
import type { OfflineSettings } from '../../src/core/offline/offline-settings.js';
import type { Harness } from './kasa-harness.js';

/** Writes a settings record (there is no settings endpoint yet); `null` removes a key. */
export async function storeSettings(
  h: Harness,
  changes: { [K in keyof OfflineSettings]?: OfflineSettings[K] | null },
): Promise<void> {
  await h.kasa.parts.journal.append({ type: 'settings', body: { changes } });
}

/** Fast retries for tests: a first wait of 100 ms, at most 400 ms. */
export const FAST_RESEND = { resendIntervalMs: 100, resendMaxIntervalMs: 400 } as const;

/** No timed retries while a test looks: only what the test does sends anything. */
export const NO_RETRY = { resendIntervalMs: 3_600_000, resendMaxIntervalMs: 3_600_000 } as const;

/** Replaces the demo merchant by a PORTABLE register of the same DIČ, from the demo CA. */
export async function usePortableMerchant(h: Harness): Promise<void> {
  const merchant = createTestMerchant({
    caDir: join(h.dataDir, DEMO_CA_DIR),
    password: 'portable-pw-1',
    type: 'PORTABLE',
    now: h.clock.now(),
  });
  const res = await h.post('/api/merchant/store', {
    identificationData: merchant.identityXml,
    authenticationData: merchant.authXml,
    keyStorePassword: 'portable-pw-1',
  });
  expect(res.body.resultCode).toBe(0);
}

/** Polls `condition` until it holds (no fixed sleeps: robust on a loaded machine). */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 60_000,
  pollMs = 25,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/** Every `sfs-exchange` record in the CHDÚ, per document number, in journal order. */
export async function exchangesByDocument(h: Harness): Promise<Map<number, SfsExchangeRecord[]>> {
  const out = new Map<number, SfsExchangeRecord[]>();
  for await (const r of h.kasa.parts.journal.records()) {
    if (r.type !== 'sfs-exchange' || r.body.subject.kind !== 'document') continue;
    const list = out.get(r.body.subject.documentNo) ?? [];
    list.push(r.body);
    out.set(r.body.subject.documentNo, list);
  }
  return out;
}

/**
 * The resend rules (protocol reference §1.9) for the given documents, on the attempts the CHDÚ
 * recorded and on the requests the simulator received: every attempt has its own Uuid;
 * SendingCount is 1 on the first attempt and grows by exactly 1; RequestDate never goes back and
 * is never before CreateDate; PKP, OKP, CreateDate and ReceiptNumber stay the same; every request
 * the simulator saw is one of the recorded attempts (same Uuid, SendingCount, RequestDate); and
 * exactly one request registered each document.
 */
export async function checkResendRules(h: Harness, documentNos: readonly number[]): Promise<void> {
  const exchanges = await exchangesByDocument(h);
  const history = h.sim.history().filter((e) => e.operation === 'RegisterReceipt');
  const uuids = new Set<string>();
  for (const no of documentNos) {
    const doc = h.kasa.parts.index.findDocument({ by: 'documentNo', documentNo: no })!;
    const created = Date.parse(doc.document.sfs.CreateDate);
    const attempts = exchanges.get(no) ?? [];
    expect(attempts.length, `attempts of document ${no}`).toBeGreaterThan(0);
    attempts.forEach((x, i) => {
      expect(x.sendingCount, `SendingCount of attempt ${i + 1} of document ${no}`).toBe(i + 1);
      expect(uuids.has(x.requestUuid), `Uuid ${x.requestUuid} reused`).toBe(false);
      uuids.add(x.requestUuid);
      const at = Date.parse(x.requestDate);
      expect(at).toBeGreaterThanOrEqual(created);
      if (i > 0) expect(at).toBeGreaterThanOrEqual(Date.parse(attempts[i - 1]!.requestDate));
    });
    const seen = history.filter((e) => e.okp === doc.document.okp);
    for (const e of seen) {
      const recorded = attempts.find((x) => x.requestUuid === e.requestUuid);
      expect(recorded, `request ${e.requestUuid} of document ${no} is a recorded attempt`).toBeDefined();
      expect(e.sendingCount).toBe(String(recorded!.sendingCount));
      expect(e.requestDate).toBe(recorded!.requestDate);
      expect(e.pkp).toBe(doc.document.pkp);
      expect(e.receiptNumber).toBe(doc.document.sfs.ReceiptNumber);
    }
    expect(
      seen.filter((e) => e.registration === 'new'),
      `registrations of document ${no}`,
    ).toHaveLength(1);
  }
}
