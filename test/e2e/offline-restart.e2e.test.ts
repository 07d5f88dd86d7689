import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestMerchant } from '../../src/adapters/merchant/test-merchant.js';
import { SfsSimulator } from '../../src/simulators/sfs/sfs-simulator.js';
import type { Json } from '../support/kasa-harness.js';
import { pd } from '../support/kasa-harness.js';
import { waitFor } from '../support/offline-helpers.js';
import { type ServeChild, startServeChild } from '../support/serve-child.js';

const post = async (base: string, path: string, body: unknown): Promise<Json> => {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return res.json();
};

describe('restart in the middle of a resend (capability 10)', () => {
  it('a register killed while it resends loses nothing and registers nothing twice', async () => {
    const caDir = mkdtempSync(join(tmpdir(), 'kasa-restart-ca-'));
    const dataDir = mkdtempSync(join(tmpdir(), 'kasa-restart-'));
    const merchant = createTestMerchant({ caDir, password: 'restart-pw-1' });
    const sim = await SfsSimulator.start({ caDir });
    const args = [
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--no-demo',
      '--sfs-url',
      sim.url,
      '--sfs-trust',
      sim.signingCertPath,
      '--sfs-timeout-ms',
      '3000',
      '--log-level',
      'warn',
    ];
    let serve: ServeChild | undefined;
    try {
      serve = await startServeChild(args);
      const stored = await post(serve.url, '/api/merchant/store', {
        identificationData: merchant.identityXml,
        authenticationData: merchant.authXml,
        keyStorePassword: 'restart-pw-1',
      });
      expect(stored.resultCode).toBe(0);

      await sim.goOffline();
      for (let i = 0; i < 40; i++)
        expect((await post(serve.url, '/api/document/store', pd())).resultCode).toBe(0);

      // The SFS is back but slow: every answer takes 150 ms after the document is registered.
      sim.setLatency(150);
      await sim.goOnline();
      // An online success wakes the sender at once.
      const online = await post(serve.url, '/api/document/store', pd());
      expect(online.document.uuid).toMatch(/^O-/);
      const resends = () => sim.history().filter((e) => Number(e.sendingCount) >= 2).length;
      await waitFor(() => resends() >= 8, 'the resend to be under way');
      // The next request is registered and never answered: kasa is killed while it waits.
      sim.injectFault({ kind: 'timeout', process: true });
      await waitFor(() => sim.history().some((e) => e.fault === 'timeout'), 'the request in flight');
      const inFlight = sim.history().find((e) => e.fault === 'timeout')!;
      expect(inFlight.registration).toBe('new');
      serve.child.kill('SIGKILL');
      await new Promise((r) => serve!.child.once('exit', r));
      expect(resends()).toBeLessThan(40);

      sim.setLatency(0);
      serve = await startServeChild(args);
      const base = serve.url;
      // No API call: the sender starts with the register.
      await waitFor(
        async () => (await post(base, '/api/report/offline', {})).documents.length === 0,
        'the queue to empty after the restart',
        120_000,
        200,
      );

      // Nothing lost: 41 documents, numbered 1…41, each registered with the Id the SFS gave it.
      const byPkp = new Map<string, Json[]>();
      for (const e of sim.history()) {
        if (e.operation !== 'RegisterReceipt' || e.pkp === undefined) continue;
        byPkp.set(e.pkp, [...(byPkp.get(e.pkp) ?? []), e]);
      }
      for (let n = 1; n <= 41; n++) {
        const doc = await lookupByNumber(base, n);
        expect(doc.uuid, `document ${n} registered`).toMatch(/^O-/);
        const seen = byPkp.get(doc.pkp) ?? [];
        // Registered exactly once; a resend of a registered one got the same Id.
        expect(
          seen.filter((e) => e.registration === 'new'),
          `registrations of document ${n}`,
        ).toHaveLength(1);
        const ids = new Set(seen.filter((e) => e.id !== undefined).map((e) => e.id));
        expect([...ids]).toEqual([doc.uuid]);
        // SendingCount grows strictly with every attempt the SFS saw: never one used twice, not
        // even the one whose outcome was lost with the process (ADR 0705).
        const counts = seen.map((e) => Number(e.sendingCount));
        counts.forEach((c, i) => {
          if (i > 0) expect(c, `SendingCounts of document ${n}: ${counts}`).toBeGreaterThan(counts[i - 1]!);
        });
      }
      expect((await post(base, '/api/document/get', {})).document.sequenceId).toBe(41);
      // The document whose answer was lost with the process was resent and got its Id again, with
      // the next SendingCount after the one in flight.
      const lost = byPkp.get(inFlight.pkp!)!;
      expect(lost.map((e) => e.registration)).toContain('repeat');
      expect(lost.at(-1)!.sendingCount).toBe(String(Number(inFlight.sendingCount) + 1));
      expect((await post(base, '/api/document/store', pd())).resultCode).toBe(0);
    } finally {
      await serve?.stop();
      await sim.close();
    }
  }, 300_000);
});

/** The document with this sequenceId in the month of the last document. */
async function lookupByNumber(base: string, sequenceId: number): Promise<Json> {
  const last = (await post(base, '/api/document/get', {})).document;
  const [year, month] = [Number(last.documentNumber.slice(0, 4)), Number(last.documentNumber.slice(4, 6))];
  return (await post(base, '/api/document/get', { documentBySequenceId: { sequenceId, month, year } }))
    .document;
}
