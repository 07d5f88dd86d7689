import { randomUUID } from 'node:crypto';
import { closeSync, fdatasyncSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { ImageFileChdu } from '../../src/adapters/chdu/image-file-chdu.js';
import { nodeSha256 } from '../../src/adapters/crypto/node-sha256.js';
import { SqliteJournalIndex } from '../../src/adapters/index/sqlite-journal-index.js';
import { createLogger } from '../../src/adapters/logging/logger.js';
import { Pkcs12MerchantKeystore } from '../../src/adapters/merchant/pkcs12-merchant-keystore.js';
import { machineSecret, SealedSecretStore } from '../../src/adapters/merchant/sealed-secret-store.js';
import { composeKasa } from '../../src/compose/compose-kasa.js';
import { defaultServeConfig } from '../../src/config/serve-config.js';
import { buildDocumentRecord } from '../../src/core/documents/document-record.js';
import { fiscalInstant, fiscalMonth, formatDocumentNumber } from '../../src/core/documents/numbering.js';
import { buildSfsReceiptData, isVatPayer } from '../../src/core/documents/sfs-receipt-data.js';
import type { StoreDocumentInput } from '../../src/core/documents/store-request.js';
import { validateStoreRequest } from '../../src/core/documents/validate-store-request.js';
import { ChduJournal } from '../../src/core/journal/chdu-journal.js';
import type { Clock } from '../../src/core/ports/clock.js';
import { type SyncReport, syncJournalIndex } from '../../src/core/services/journal-sync.js';
import { MerchantSession } from '../../src/core/services/merchant-session.js';
import { okpFromPkp } from '../../src/core/sfs/okp.js';
import { computePkp } from '../../src/core/sfs/pkp.js';
import { formatSfsDateTime } from '../../src/core/time.js';
import { storeBody } from '../lib/bodies.js';

/**
 * The bulk-seeding path for the 1,000,000-document figures (capability 13): real, signed, chained
 * records in a real CHDÚ image, made by the same functions the store path uses — validation,
 * numbering, the SFS data, the PKP signed with the demo merchant's key, the OKP, the document
 * record, the journal's framing and hash chain on the image's write-once slots. How it differs
 * from `POST /api/document/store` (docs/performance.md, "Bulk seeding"):
 * - no HTTP and no SFS round trip: each document's `sfs-exchange` record says `accepted` with a
 *   receipt id made as the simulator makes them (`O-` + 32 hex digits), 2 s after creation;
 * - no printer: each document's `print` record says printed;
 * - the image is written without a flush per record and synced once at the end (the store path
 *   answers only after every record is durable);
 * - the index is not updated per record: it is built afterwards from the CHDÚ alone by the same
 *   replay / full reindex `kasa serve` and `kasa chdu reindex` run (`syncJournalIndex`).
 * The documents are dated from `plan.startMs`, one every `plan.stepMs`, so they are in the past
 * when kasa later starts with the real clock; the demo merchant is created at `plan.startMs`.
 */
export interface SeedPlan {
  dataDir: string;
  /** The image file; `capacityBlocks` applies when it is created. */
  imagePath: string;
  capacityBlocks: number;
  startMs: number;
  stepMs: number;
}

/** The keys one seeded document can be looked up by. */
export interface SeededKeys {
  sequenceId: number;
  month: number;
  year: number;
  externalId: string;
  okp: string;
  pkp: string;
  uuid: string;
}

const DAY_MS = 86_400_000;

/**
 * Dates for `total` documents ending a minute before `now`: one every 10 s, closer together when
 * that would reach back before the 2nd of January of this year (one VAT regime for all of them).
 */
export function planSeed(dataDir: string, total: number, now = new Date()): SeedPlan {
  const end = now.getTime() - 60_000;
  const yearStart = Date.UTC(now.getUTCFullYear(), 0, 2);
  const span = Math.min(total * 10_000, Math.max(DAY_MS, end - yearStart), 300 * DAY_MS);
  const stepMs = Math.max(1, Math.floor(span / Math.max(1, total)));
  const capacityBlocks = Math.max(100_000, Math.ceil(total * 6.5) + 50_000);
  return { dataDir, imagePath: join(dataDir, 'chdu.img'), capacityBlocks, startMs: end - span, stepMs };
}

/**
 * Dates for `total` documents of the last two hours (one every ≤ 1 s, ending a minute ago): an
 * offline backlog the SFS still takes (its dates are well inside the 96-hour windows).
 */
export function planRecentSeed(dataDir: string, total: number, now = new Date()): SeedPlan {
  const end = now.getTime() - 60_000;
  const span = Math.min(total * 1000, 2 * 3600_000);
  const stepMs = Math.max(1, Math.floor(span / Math.max(1, total)));
  // Room for the resends too (a start and an outcome record each, ADR 0705) and for the receipts
  // the POS stores while the backlog drains (figure 4 stops after 10 minutes: ~30,000 at most).
  const capacityBlocks = Math.ceil(total * 9) + 200_000;
  return {
    dataDir,
    imagePath: join(dataDir, 'chdu.img'),
    capacityBlocks,
    startMs: end - span - 120_000,
    stepMs,
  };
}

/** `--chdu` of the seeded register, for `kasa serve`. */
export function chduArg(plan: SeedPlan): string {
  return `image:${plan.imagePath}`;
}

/** A new register at `plan.startMs`: its image, index, secrets and the demo merchant (record 1). */
export async function createSeedRegister(plan: SeedPlan): Promise<void> {
  const clock: Clock = { now: () => new Date(plan.startMs) };
  const config = defaultServeConfig(plan.dataDir, {
    port: 0,
    chdu: { kind: 'image', path: plan.imagePath, capacityBlocks: plan.capacityBlocks },
    printer: { kind: 'none' },
    logLevel: 'silent',
    // The rollback mark (ADR 0118) where `kasa serve` of the bench keeps it, beside the data dir.
    markDir: `${plan.dataDir}-marks`,
  });
  const kasa = await composeKasa(config, { clock, logger: createLogger('silent') });
  await kasa.close();
}

/**
 * Appends documents number `from` … `to − 1` of the plan (3 records each: document, sfs-exchange,
 * print) to the register's journal. kasa must not be running on it (the image lock says so).
 * The index must be current when this starts (numbering continues from it); it is not touched:
 * bring it up with {@link syncSeededIndex}. `sample(i, keys)` sees every document's look-up keys.
 */
export async function seedDocuments(
  plan: SeedPlan,
  from: number,
  to: number,
  sample: (i: number, keys: SeededKeys) => void = () => undefined,
  progress: (done: number) => void = () => undefined,
  options: { offline?: boolean } = {},
): Promise<void> {
  let nowMs = plan.startMs + 60_000 + from * plan.stepMs;
  const clock: Clock = { now: () => new Date(nowMs) };
  const index = SqliteJournalIndex.open(join(plan.dataDir, 'index.sqlite'));
  let chdu: ImageFileChdu | undefined;
  try {
    const keystore = new Pkcs12MerchantKeystore(
      new SealedSecretStore(join(plan.dataDir, 'secrets'), machineSecret),
    );
    const session = new MerchantSession({ index, keystore, clock });
    await session.load();
    const { recordNo: merchantRecordNo, merchant: m, signer } = session.currentSigner();
    const identity = {
      dic: m.dic,
      cashRegisterCode: m.organizationUnit.cashRegisterCode,
      ...(m.ico === undefined ? {} : { ico: m.ico }),
      ...(m.icDph === undefined ? {} : { icDph: m.icDph }),
    };
    const vatPayer = isVatPayer(identity);
    chdu = await ImageFileChdu.open(plan.imagePath, { syncWrites: false, holder: 'bench seed' });
    const journal = await ChduJournal.open(chdu, { sha256: nodeSha256, clock, readBatch: 1024 });
    if (journal.head()?.recordNo !== index.highWaterMark()) {
      throw new Error('seed: the index is not current; sync it before seeding on');
    }
    let documentNo = index.lastDocumentNo();
    const sequences = new Map<string, number>();
    const nextSequence = (year: number, month: number): number => {
      const key = `${year}-${month}`;
      const next = (sequences.get(key) ?? index.lastSequenceId(year, month)) + 1;
      sequences.set(key, next);
      return next;
    };
    for (let i = from; i < to; i++) {
      nowMs = plan.startMs + 60_000 + i * plan.stepMs;
      const createDate = fiscalInstant(new Date(nowMs));
      const externalId = `seed-${i}`;
      const request = validateStoreRequest(storeBody({ externalId }) as unknown as StoreDocumentInput, {
        createDate,
        vatPayer,
      });
      const { year, month } = fiscalMonth(createDate);
      const sequenceId = nextSequence(year, month);
      const numbering = {
        sequenceId,
        documentNumber: formatDocumentNumber(year, month, sequenceId),
        year,
        month,
      };
      const sfs = buildSfsReceiptData(request, identity, numbering, createDate);
      const pkp = computePkp(sfs, signer);
      const okp = okpFromPkp(pkp);
      documentNo++;
      const record = buildDocumentRecord({
        request,
        sfs,
        pkp,
        okp,
        documentNo,
        merchantRecordNo,
        numbering,
        idempotency: undefined,
        demo: m.demo,
      });
      await journal.append({ type: 'document', body: record });
      nowMs += 2000;
      const id = `O-${randomUUID().replace(/-/g, '').toUpperCase()}`;
      const requestDate = formatSfsDateTime(new Date(nowMs - 1000));
      // Online: accepted with a receipt id; offline: the first attempt found the SFS unreachable
      // (the document is in the offline queue, its receipt printed with the offline QR).
      await journal.append({
        type: 'sfs-exchange',
        body: options.offline
          ? {
              subject: { kind: 'document', documentNo },
              requestUuid: randomUUID(),
              requestDate,
              sendingCount: 1,
              outcome: 'unreachable',
              errorText: 'connect ECONNREFUSED (bench seed: offline)',
            }
          : {
              subject: { kind: 'document', documentNo },
              requestUuid: randomUUID(),
              requestDate,
              sendingCount: 1,
              outcome: 'accepted',
              id,
              processDate: formatSfsDateTime(new Date(nowMs)),
            },
      });
      await journal.append({ type: 'print', body: { documentNo, copy: false, ok: true } });
      sample(i, { sequenceId, month, year, externalId, okp, pkp, uuid: id });
      if ((i - from + 1) % 10_000 === 0) progress(i - from + 1);
    }
  } finally {
    index.close();
    await chdu?.close();
  }
  // The store path flushes every record; the seed flushes once, here.
  const fd = openSync(plan.imagePath, 'r+');
  try {
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Brings the index up to the seeded journal: a replay of the new records, or with `rebuild` a full
 * reindex from record 1 (what `kasa chdu reindex` does).
 */
export async function syncSeededIndex(
  plan: SeedPlan,
  options: { rebuild?: boolean; onProgress?: (done: number, total: number) => void } = {},
): Promise<SyncReport> {
  const chdu = await ImageFileChdu.open(plan.imagePath, { readOnly: true });
  const index = SqliteJournalIndex.open(join(plan.dataDir, 'index.sqlite'));
  try {
    const journal = await ChduJournal.open(chdu, { sha256: nodeSha256, readBatch: 1024 });
    return await syncJournalIndex(journal, index, {
      ...(options.rebuild ? { rebuild: true } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
  } finally {
    index.close();
    await chdu.close();
  }
}
