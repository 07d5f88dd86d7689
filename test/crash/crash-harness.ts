import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteJournalIndex } from '../../src/adapters/index/sqlite-journal-index.js';
import { openJournalReadOnly } from '../../src/compose/open-journal.js';
import { syncJournalIndex } from '../../src/core/services/journal-sync.js';
import {
  killHard,
  type ServeChild,
  serveArgs,
  startServeChild,
  startSfsSimChild,
  storeTestMerchant,
} from '../support/process-register.js';
import { seededRandom } from '../support/seeded-random.js';
import { repoRoot } from '../support/shared-fixtures.js';
import { compareIndexes, journalUpTo } from './index-compare.js';
import { type JournalDocument, journalDocuments } from './journal-documents.js';

/**
 * The crash harness (`npm run test:crash`; a short run is part of `npm test`): `kasa serve` as a
 * child process under steady load — online and offline stores, cash, printing failures, requests
 * with and without Idempotency-Key — SIGKILLed at random moments, and after every restart:
 * every acknowledged document is in the CHDÚ unchanged, no number is missing or used twice within
 * a month, `kasa chdu verify` passes, the live index equals one rebuilt from the CHDÚ, and a
 * request retried with its Idempotency-Key never makes a second document.
 *
 * The SFS is an external `kasa sfs-sim` switched offline through its control API; printing fails
 * in phases run with `--printer none` (the real no-printer adapter: every paper print is 104,
 * electronic receipts still work) — no test-only switch inside kasa.
 */
export interface CrashOptions {
  kills: number;
  seed: number;
  /** Progress lines (one per kill) and the summary. */
  log?: (line: string) => void;
  /** Keep the temporary folder (for inspection after a failure). */
  keep?: boolean;
}

export interface CrashReport {
  seed: number;
  kills: number;
  /** Kills that hit kasa while it was starting (before it listened). */
  killsDuringStart: number;
  /** Documents the POS was answered with (0, or 507 carrying the document). */
  acknowledged: number;
  /** Documents in the CHDÚ at the end. */
  documents: number;
  /** Keyed requests cut by a kill and retried. */
  retried: number;
  /** Requests a kill cut before they were answered. */
  cut: number;
  requests: number;
  durationMs: number;
  failures: string[];
  root: string;
}

interface Acked {
  internalDocumentId: number;
  documentNumber: string;
  okp: string;
  pkp: string;
  amount: number;
  key?: string;
}

interface Keyed {
  url: '/api/document/store' | '/api/cash';
  body: Record<string, unknown>;
  key: string;
}

type Answer = { status: number; body: Record<string, unknown> };

export async function runCrashHarness(options: CrashOptions): Promise<CrashReport> {
  const log = options.log ?? (() => undefined);
  const random = seededRandom(options.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const between = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const started = Date.now();
  const root = mkdtempSync(join(tmpdir(), 'kasa-crash-'));
  const dataDir = join(root, 'data');
  const markDir = join(root, 'marks');
  const caDir = join(root, 'ca');
  const failures: string[] = [];
  const acked = new Map<number, Acked>();
  let pending: Keyed[] = [];
  let retried = 0;
  let requests = 0;
  let killsDuringStart = 0;
  let killsDone = 0;
  let cutRequests = 0;
  let keyNo = 0;
  log(`crash harness: seed ${options.seed}, ${options.kills} kills, folder ${root}`);

  const sim = await startSfsSimChild(caDir);
  let serve: ServeChild | undefined;
  try {
    const argsFor = (printer: 'virtual' | 'none') =>
      serveArgs(dataDir, markDir, sim, ['--sfs-timeout-ms', '1500', '--printer', printer]);
    serve = await startServeChild(argsFor('virtual'), {}, 60_000);
    await storeTestMerchant(serve, caDir);
    await serve.stop();

    for (let kill = 1; kill <= options.kills; kill++) {
      killsDone = kill;
      const printer = random() < 0.2 ? 'none' : 'virtual';
      // A kill while kasa starts (replaying the index, checking the chain) now and then.
      if (random() < 0.12) {
        if (await killWhileStarting(argsFor(printer), between(150, 2500))) {
          killsDuringStart++;
          log(`kill ${kill}/${options.kills}: while starting`);
          continue;
        }
      }
      serve = await startServeChild(argsFor(printer), {}, 60_000);
      const s = serve;
      const call = (url: string, body: unknown, key?: string) => post(s.url, url, body, key);

      await afterRestart(s, call);
      const before = failures.length;
      await check(kill);
      if (failures.length > before) break;

      // Load until a random moment, then SIGKILL mid-request.
      const killAt = Date.now() + between(250, 2500);
      const inFlight: Keyed[] = [];
      const load = (async () => {
        while (Date.now() < killAt) {
          if (random() < 0.05)
            void sim.control('/__sim/offline', { ms: between(200, 1500) }).catch(() => undefined);
          const r = random();
          if (r < 0.12) {
            await call('/api/document/get', {}).catch(() => undefined);
            continue;
          }
          const keyed = random() < 0.4;
          const req: Keyed =
            r < 0.75
              ? {
                  url: '/api/document/store',
                  body: sale(random, printer === 'none' && random() < 0.7),
                  key: `k-${options.seed}-${++keyNo}`,
                }
              : {
                  url: '/api/cash',
                  body: { amount: pick([10, 25.5, -5, -12.3, 100]) },
                  key: `k-${options.seed}-${++keyNo}`,
                };
          if (keyed) inFlight.push(req);
          requests++;
          const res = await call(req.url, req.body, keyed ? req.key : undefined).catch(() => undefined);
          if (!res) {
            cutRequests++;
            return; // the kill: a keyed request stays in flight, to be retried
          }
          if (keyed) inFlight.splice(inFlight.indexOf(req), 1);
          note(res, keyed ? req.key : undefined);
          if (res.body.resultCode === 507 || res.body.resultCode === 508) {
            await call('/api/document/print', {}).catch(() => undefined);
          }
        }
      })();
      await new Promise((r) => setTimeout(r, Math.max(0, killAt - Date.now())));
      await killHard(s);
      await load;
      pending.push(...inFlight);
      log(
        `kill ${kill}/${options.kills}: printer ${printer}, ${acked.size} acknowledged, ${inFlight.length} keyed in flight`,
      );
    }

    // A last start: retry what is left, then the same checks once more.
    if (failures.length === 0) {
      serve = await startServeChild(argsFor('virtual'), {}, 60_000);
      const s = serve;
      await afterRestart(s, (url, body, key) => post(s.url, url, body, key));
      await check(options.kills + 1);
      await s.stop();
    }
  } catch (e) {
    failures.push(`harness error: ${(e as Error).stack ?? String(e)}`);
  } finally {
    if (serve && serve.child.exitCode === null && serve.child.signalCode === null) await killHard(serve);
    await sim.stop();
  }

  const documents = failures.length === 0 ? (await readJournal()).length : -1;
  const report: CrashReport = {
    seed: options.seed,
    kills: killsDone,
    killsDuringStart,
    acknowledged: acked.size,
    documents,
    retried,
    cut: cutRequests,
    requests,
    durationMs: Date.now() - started,
    failures,
    root,
  };
  log(
    `crash harness: seed ${report.seed}: ${report.kills} kills (${killsDuringStart} while starting), ${requests} requests (${cutRequests} cut by a kill), ${report.acknowledged} documents acknowledged, ${documents} in the CHDÚ, ${retried} keyed retries, ${(report.durationMs / 1000).toFixed(0)} s, ${failures.length} failure(s)`,
  );
  if (failures.length === 0 && !options.keep) rmSync(root, { recursive: true, force: true });
  return report;

  /** Remember what the POS was told about a document (0, or 507 with the document). */
  function note(res: Answer, key: string | undefined): void {
    const b = res.body;
    const doc = (b.document ?? b.cash) as Record<string, unknown> | undefined;
    if (!doc || (b.resultCode !== 0 && b.resultCode !== 507)) return;
    const a: Acked = {
      internalDocumentId: doc.internalDocumentId as number,
      documentNumber: doc.documentNumber as string,
      okp: doc.okp as string,
      pkp: doc.pkp as string,
      amount: doc.amount as number,
      ...(key ? { key } : {}),
    };
    const earlier = acked.get(a.internalDocumentId);
    if (earlier && (earlier.okp !== a.okp || earlier.documentNumber !== a.documentNumber)) {
      failures.push(`document ${a.internalDocumentId} was answered twice with different contents`);
    }
    acked.set(a.internalDocumentId, earlier?.key && !a.key ? earlier : a);
  }

  /** After a restart: retry the keyed requests a kill cut, and clear a pending print. */
  async function afterRestart(s: ServeChild, call: (u: string, b: unknown, k?: string) => Promise<Answer>) {
    // READY — or, until the pending original is printed below, 508 (the last document unprinted).
    const status = (await (await fetch(`${s.url}/api/status/get`)).json()) as Record<string, unknown>;
    if (status.state !== 'READY' && status.reasonCode !== 508) {
      failures.push(`not READY after restart: ${status.reasonCode} ${JSON.stringify(status.reason)}`);
    }
    const still: Keyed[] = [];
    for (const req of pending) {
      let res = await call(req.url, req.body, req.key);
      if (res.body.resultCode === 508) {
        await call('/api/document/print', {});
        res = await call(req.url, req.body, req.key);
      }
      retried++;
      note(res, req.key);
      if (res.body.resultCode === 507) await call('/api/document/print', {});
      // Refused before anything was stored (e.g. the last document cannot be printed): try later.
      if (!(res.body.document ?? res.body.cash)) still.push(req);
    }
    pending = still;
    await call('/api/document/print', {});
  }

  async function readJournal(): Promise<JournalDocument[]> {
    const opened = await openJournalReadOnly({ kind: 'image', path: join(dataDir, 'chdu.img') });
    try {
      return await journalDocuments(opened.journal);
    } finally {
      await opened.close();
    }
  }

  /** Every check, after a restart (kasa is up and idle; its start check has replayed the index). */
  async function check(round: number): Promise<void> {
    const fail = (what: string) => failures.push(`after kill ${round - 1}: ${what}`);
    const verify = await runKasa(['chdu', 'verify', '--data-dir', dataDir]);
    if (verify.code !== 0 || !/^verify: OK/m.test(verify.out))
      fail(`kasa chdu verify: ${verify.out}${verify.err}`);

    const docs = await readJournal();
    const byNo = new Map(docs.map((d) => [d.documentNo, d]));
    for (const a of acked.values()) {
      const d = byNo.get(a.internalDocumentId);
      if (!d) fail(`acknowledged document ${a.documentNumber} (#${a.internalDocumentId}) is missing`);
      else if (
        d.documentNumber !== a.documentNumber ||
        d.okp !== a.okp ||
        d.pkp !== a.pkp ||
        d.amount !== a.amount
      ) {
        fail(
          `acknowledged document #${a.internalDocumentId} changed: ${JSON.stringify({ answered: a, stored: d })}`,
        );
      }
    }
    docs.forEach((d, i) => {
      if (d.documentNo !== i + 1) fail(`internal numbers not consecutive at ${d.documentNo}`);
    });
    const months = new Map<string, number[]>();
    for (const d of docs) months.set(d.month, [...(months.get(d.month) ?? []), d.sequenceId]);
    for (const [month, seq] of months) {
      const sorted = [...seq].sort((x, y) => x - y);
      if (sorted.some((n, i) => n !== i + 1))
        fail(`month ${month}: numbers ${sorted.join(',')} have a gap or a duplicate`);
    }
    const keys = new Map<string, number>();
    for (const d of docs) if (d.key) keys.set(d.key, (keys.get(d.key) ?? 0) + 1);
    for (const [key, n] of keys) if (n > 1) fail(`Idempotency-Key ${key} made ${n} documents`);

    // The live index equals one rebuilt from the CHDÚ alone — compared at one record: kasa is up
    // but its sender may still be resending the backlog (an sfs-attempt and an outcome record per
    // document), so the live index is read in one read transaction (a WAL snapshot) at its
    // high-water mark, and the rebuild stops at that same record. A live index that stays behind
    // the CHDÚ's head, or runs ahead of it, fails on its own.
    const fresh = SqliteJournalIndex.open(join(root, `reindex-${round}.sqlite`));
    let live: SqliteJournalIndex | undefined;
    let opened = await openJournalReadOnly({ kind: 'image', path: join(dataDir, 'chdu.img') });
    try {
      const chduHead = opened.journal.head()?.recordNo ?? 0;
      const until = Date.now() + 30_000;
      let mark = -1;
      for (;;) {
        live = SqliteJournalIndex.openReadOnly(join(dataDir, 'index.sqlite'));
        if (!live) break;
        live.database.exec('BEGIN');
        mark = live.highWaterMark(); // the first read fixes the snapshot the whole compare sees
        if (mark >= chduHead || Date.now() > until) break;
        live.close();
        live = undefined;
        await new Promise((r) => setTimeout(r, 100));
      }
      if (!live) fail('no live index');
      else if (mark < chduHead)
        fail(`the live index stays at record ${mark}, behind the CHDÚ's head ${chduHead}, for 30 s`);
      else {
        // Re-read the head: the CHDÚ must hold every record the live index has seen.
        await opened.close();
        opened = await openJournalReadOnly({ kind: 'image', path: join(dataDir, 'chdu.img') });
        const atMark = await journalUpTo(opened.journal, mark);
        if (!atMark) fail(`the live index is at record ${mark}, which the CHDÚ does not hold`);
        else {
          await syncJournalIndex(atMark, fresh, { rebuild: true });
          for (const d of compareIndexes(live, fresh)) fail(`index differs from a fresh reindex: ${d}`);
        }
      }
    } finally {
      await opened.close();
      live?.close();
      fresh.close();
      for (const suffix of ['', '-wal', '-shm'])
        rmSync(join(root, `reindex-${round}.sqlite${suffix}`), { force: true });
    }
  }

  /** Starts kasa and SIGKILLs it after `ms`; true when it was still starting (never listened). */
  async function killWhileStarting(args: string[], ms: number): Promise<boolean> {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(repoRoot, 'src', 'main.ts'), 'serve', ...args],
      {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', () => undefined);
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    await new Promise((r) => setTimeout(r, ms));
    const listened = /kasa listening on/.test(out);
    child.kill('SIGKILL');
    await exited;
    return !listened;
  }
}

function sale(random: () => number, electronic: boolean): Record<string, unknown> {
  const qty = 1 + Math.floor(random() * 3);
  const price = [1.2, 2.5, 3.99, 0.15][Math.floor(random() * 4)]!;
  const total = Math.round(price * qty * 100) / 100;
  return {
    type: 'PD',
    amount: total,
    documentEntries: [{ name: 'Tovar', price, quantity: qty, vatRate: 'VAT_23', itemType: 'SALE' }],
    payments: { Hotovosť: total },
    ...(electronic ? { electronicReceipt: true } : {}),
  };
}

async function post(base: string, url: string, body: unknown, key?: string): Promise<Answer> {
  const res = await fetch(`${base}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

function runKasa(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'src', 'main.ts'), ...args], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (err += String(d)));
    child.once('exit', (code) => resolve({ code, out, err }));
  });
}
