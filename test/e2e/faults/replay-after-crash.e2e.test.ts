import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { composeChduStorage } from '../../../src/compose/chdu-storage.js';
import { type Harness, type Json, pd, startHarness } from '../../support/kasa-harness.js';
import {
  killHard,
  type ServeChild,
  type SfsSimChild,
  serveArgs,
  startServeChild,
  startSfsSimChild,
  storeTestMerchant,
} from '../../support/process-register.js';
import { waitFor } from '../../support/wait-for.js';

let h: Harness | undefined;
let sim: SfsSimChild | undefined;
let serve: ServeChild | undefined;
afterEach(async () => {
  await h?.close();
  await serve?.stop();
  await sim?.stop();
  h = undefined;
  serve = undefined;
  sim = undefined;
});

/** Jobs the virtual printer of a serve child wrote (one .bin of ESC/POS bytes per job). */
const printedJobs = (dataDir: string): number =>
  existsSync(join(dataDir, 'virtual-printer'))
    ? readdirSync(join(dataDir, 'virtual-printer')).filter((f) => f.endsWith('.bin')).length
    : 0;

/**
 * The register is SIGKILLed right after the document reached the CHDÚ, while the SFS (an external
 * `kasa sfs-sim` told to never answer) keeps the request waiting: the document is stored, never
 * sent, never printed. Then kasa starts again and the POS retries with the same key.
 */
async function crashAfterTheChduWrite(
  url: '/api/document/store' | '/api/cash',
  body: Record<string, unknown>,
  key: Record<string, string>,
): Promise<{
  dataDir: string;
  post: (body: unknown) => Promise<{ status: number; body: Json }>;
  print: () => Promise<Json>;
}> {
  const root = mkdtempSync(join(tmpdir(), 'kasa-replay-'));
  const caDir = join(root, 'ca');
  sim = await startSfsSimChild(caDir);
  const args = serveArgs(join(root, 'data'), join(root, 'marks'), sim, ['--sfs-timeout-ms', '60000']);
  serve = await startServeChild(args);
  await storeTestMerchant(serve, caDir);
  if (url === '/api/cash') {
    // Cash is not sent from 2026 (Act 384/2025, ADR 0704): with sending forced (the test setting),
    // the SFS call is where the request waits, as for a store.
    await serve.stop();
    const storage = await composeChduStorage({
      dataDir: join(root, 'data'),
      chdu: { kind: 'image', path: join(root, 'data', 'chdu.img') },
    });
    await storage.journal.append({ type: 'settings', body: { changes: { forceSendCashDocuments: true } } });
    await storage.close();
    serve = await startServeChild(args);
  }
  await sim.control('/__sim/fault', { kind: 'timeout' });
  const request = fetch(`${serve.url}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...key },
    body: JSON.stringify(body),
  }).catch(() => undefined);
  // The SFS has the request: the document is in the CHDÚ (it is written before it is sent).
  await waitFor(
    async () => ((await sim!.control('/__sim/received')) as { requests: unknown[] }).requests.length > 0,
  );
  await killHard(serve);
  await request;
  serve = await startServeChild(args);
  const base = serve.url;
  return {
    dataDir: join(root, 'data'),
    post: async (b) => {
      const res = await fetch(`${base}${url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...key },
        body: JSON.stringify(b),
      });
      return { status: res.status, body: (await res.json()) as Json };
    },
    print: async () =>
      (await fetch(`${base}/api/document/print`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      }).then((r) => r.json())) as Json,
  };
}

describe('a retry after a crash between the CHDÚ write and printing (ADR 0119)', () => {
  it('store: 507 with the document, no printer code, nothing printed or written again', async () => {
    const key = { 'idempotency-key': 'crash-store-1' };
    const again = await crashAfterTheChduWrite('/api/document/store', pd(), key);
    const retry = await again.post(pd());
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ resultCode: 507, document: { internalDocumentId: 1, sequenceId: 1 } });
    expect(retry.body.printResultCode).toBeUndefined();
    expect(retry.body.error).toContain('POST /api/document/print');
    expect(printedJobs(again.dataDir)).toBe(0);
  });

  it('cash: answers exactly as store does — 507 with the cash object (HTTP 200), not a printer code', async () => {
    const key = { 'idempotency-key': 'crash-cash-1' };
    const again = await crashAfterTheChduWrite('/api/cash', { amount: 20 }, key);
    const retry = await again.post({ amount: 20 });
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({
      resultCode: 507,
      cash: { internalDocumentId: 1, sequenceId: 1, amount: 20, documentType: 'VK' },
    });
    expect(retry.body.printResultCode).toBeUndefined();
    expect(printedJobs(again.dataDir)).toBe(0);
    // Printed as the answer says; the retry then answers the cash object with 0 and no new number.
    expect(await again.print()).toEqual({ resultCode: 0 });
    const after = await again.post({ amount: 20 });
    expect(after.body).toMatchObject({ resultCode: 0, cash: { internalDocumentId: 1 } });
    await waitFor(() => printedJobs(again.dataDir) === 1); // its files are written beside the answer
  });

  it('cash whose print failed carries its cash object on the first answer and on the retry', async () => {
    h = await startHarness();
    h.printer.failNext('PRINTER_NO_PAPER');
    const key = { 'idempotency-key': 'cash-no-paper' };
    const first = await h.post('/api/cash', { amount: -15 }, key);
    expect(first.body).toMatchObject({ resultCode: 105, printResultCode: 105, cash: { amount: -15 } });
    const retry = await h.post('/api/cash', { amount: -15 }, key);
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ resultCode: 507, printResultCode: 105, cash: { amount: -15 } });
    expect(h.printer.failures).toHaveLength(1);
  });
});
