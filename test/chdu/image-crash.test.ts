import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageFileChdu } from '../../src/adapters/chdu/image-file-chdu.js';
import { HEADER_SIZE, SLOT_SIZE, slotOffset } from '../../src/adapters/chdu/image-layout.js';
import { nodeSha256 } from '../../src/adapters/crypto/node-sha256.js';
import { ChduJournal } from '../../src/core/journal/chdu-journal.js';
import type { JournalRecord, NewRecord } from '../../src/core/journal/records.js';
import { mixedRecords } from '../support/journal-fixtures.js';
import { seededRandom } from '../support/seeded-random.js';

/**
 * Crash safety (capability 3 acceptance): the image is cut or garbled at many random byte offsets, as
 * a crash or power loss in the middle of a write would leave it, then reopened. Every record
 * completed before the cut must be found, the torn one must not, and the next write must work.
 */
const SEED = Number(process.env.KASA_CRASH_SEED ?? 20260302);
const CUTS = 80;

let dir: string;
let pristine: Buffer;
let written: JournalRecord[];
let sources: NewRecord[];
/** File length after each record completed. */
let ends: number[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kasa-crash-'));
  const path = join(dir, 'source.img');
  const chdu = await ImageFileChdu.open(path, {
    create: true,
    capacityBlocks: 10_000,
    serial: 1,
    volumeSerial: 2,
  });
  const journal = await ChduJournal.open(chdu, { sha256: nodeSha256 });
  written = [];
  ends = [];
  sources = [...mixedRecords(24), { type: 'free-text', body: { text: 'long '.repeat(900) } }];
  for (const r of sources) {
    written.push(await journal.append(r));
    ends.push(slotOffset(chdu.usedBlocks));
  }
  await chdu.close();
  pristine = readFileSync(path);
  expect(pristine.length).toBe(ends.at(-1));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Damage = 'truncate' | 'garbage-tail' | 'zero-fill' | 'garbage-fill';

function damage(kind: Damage, at: number, rnd: () => number): Buffer {
  const cut = Buffer.from(pristine.subarray(0, at));
  switch (kind) {
    case 'truncate':
      return cut;
    case 'garbage-tail': {
      // The torn write left some bytes of a slot, then garbage sectors.
      const extra = Buffer.alloc(Math.floor(rnd() * 1600));
      for (let i = 0; i < extra.length; i++) extra[i] = Math.floor(rnd() * 256);
      return Buffer.concat([cut, extra]);
    }
    case 'zero-fill':
      // The file system extended the file but the data never reached the disk.
      return Buffer.concat([cut, Buffer.alloc(pristine.length - at)]);
    case 'garbage-fill': {
      const rest = Buffer.alloc(pristine.length - at);
      for (let i = 0; i < rest.length; i++) rest[i] = Math.floor(rnd() * 256);
      return Buffer.concat([cut, rest]);
    }
  }
}

/**
 * A write of `slots` slots from byte `start` torn by a crash: each slot reached the disk or not
 * (missing with probability `pMissing`, at least one missing), a missing one reads as zeros or as
 * garbage, and with `cutAtLastLanded` the file ends at the last slot that landed.
 */
function tearWrite(
  image: Buffer,
  start: number,
  slots: number,
  rnd: () => number,
  options: { pMissing: number; garbage: boolean; cutAtLastLanded: boolean },
): { bytes: Buffer; cut: number; mask: string } {
  const missing = Array.from({ length: slots }, () => rnd() < options.pMissing);
  if (missing.every((m) => !m)) missing[Math.floor(rnd() * slots)] = true;
  const bytes = Buffer.from(image);
  missing.forEach((gone, i) => {
    if (!gone) return;
    const at = start + i * SLOT_SIZE;
    for (let b = at; b < at + SLOT_SIZE; b++) bytes[b] = options.garbage ? Math.floor(rnd() * 256) : 0;
  });
  const lastLanded = missing.lastIndexOf(false);
  const cut =
    options.cutAtLastLanded && lastLanded >= 0 ? start + (lastLanded + 1) * SLOT_SIZE : bytes.length;
  return { bytes: bytes.subarray(0, cut), cut, mask: missing.map((m) => (m ? 1 : 0)).join('') };
}

/** The journal holds exactly `records` (head, records read back) and its chain verifies. */
async function expectJournalHolds(
  journal: ChduJournal,
  records: JournalRecord[],
  context: string,
): Promise<void> {
  expect(journal.head()?.recordNo ?? 0, context).toBe(records.length);
  const found: JournalRecord[] = [];
  for await (const r of journal.records()) found.push(r);
  expect(found, context).toEqual(records);
  expect((await journal.verify()).ok, context).toBe(true);
}

describe(`image-file CHDÚ crash safety (seed ${SEED})`, () => {
  it(`keeps every completed record and drops the torn one at ${CUTS} random cuts`, async () => {
    const rnd = seededRandom(SEED);
    const kinds: Damage[] = ['truncate', 'garbage-tail', 'zero-fill', 'garbage-fill'];
    for (let i = 0; i < CUTS; i++) {
      const at = HEADER_SIZE + Math.floor(rnd() * (pristine.length - HEADER_SIZE));
      const kind = kinds[i % kinds.length]!;
      const path = join(dir, `cut-${i}.img`);
      writeFileSync(path, damage(kind, at, rnd));
      const complete = ends.filter((end) => end <= at).length;
      const context = `cut ${i}: ${kind} at byte ${at}, ${complete} records complete`;

      const chdu = await ImageFileChdu.open(path);
      const journal = await ChduJournal.open(chdu, { sha256: nodeSha256 });
      await expectJournalHolds(journal, written.slice(0, complete), context);

      const next = await journal.append({ type: 'free-text', body: { text: `after ${context}` } });
      expect(next.recordNo, context).toBe(complete + 1);
      await chdu.close();

      const again = await ChduJournal.open(await ImageFileChdu.open(path), { sha256: nodeSha256 });
      expect(again.head()?.hash, context).toBe(next.chainHash);
      expect((await again.verify()).ok, context).toBe(true);
      await (again.chdu as ImageFileChdu).close();
      rmSync(path);
    }
  });

  it('a record torn in its one write with any of its slots missing is cut whole (ADR 1101)', async () => {
    const rnd = seededRandom(SEED + 1);
    let cases = 0;
    for (const [k, record] of written.entries()) {
      const start = slotOffset(record.address);
      const slots = (ends[k]! - start) / SLOT_SIZE;
      if (slots < 2) continue;
      // Any subset of the write's slots may have reached the disk, in any order; at least one did not.
      for (let trial = 0; trial < 3; trial++) {
        // Sometimes the file ends at the last slot that landed (the rest never extended it).
        const { bytes, cut, mask } = tearWrite(pristine.subarray(0, ends[k]!), start, slots, rnd, {
          pMissing: 0.5,
          garbage: trial === 1,
          cutAtLastLanded: trial === 2,
        });
        const path = join(dir, `torn-${k}-${trial}.img`);
        writeFileSync(path, bytes);
        const context = `record ${k + 1} (${slots} slots), missing ${mask}`;

        const chdu = await ImageFileChdu.open(path);
        expect(chdu.tornBytesAtOpen, context).toBe(cut - start);
        const journal = await ChduJournal.open(chdu, { sha256: nodeSha256 });
        await expectJournalHolds(journal, written.slice(0, k), context);
        const next = await journal.append(sources[k]!);
        expect(next.recordNo, context).toBe(k + 1);
        expect(next.address, context).toBe(record.address);
        await chdu.close();
        const again = await ChduJournal.open(await ImageFileChdu.open(path), { sha256: nodeSha256 });
        expect(again.head()?.hash, context).toBe(next.chainHash);
        await (again.chdu as ImageFileChdu).close();
        rmSync(path);
        cases++;
      }
    }
    expect(cases).toBeGreaterThan(20);
  });

  it('detects a byte changed inside a completed record without losing the records after it', async () => {
    const path = join(dir, 'tampered.img');
    const copy = Buffer.from(pristine);
    const victim = written[9]!;
    const at = slotOffset(victim.address) + 40; // inside the data of the record's first block
    copy[at] = copy[at]! ^ 0x01;
    writeFileSync(path, copy);
    const chdu = await ImageFileChdu.open(path);
    const journal = await ChduJournal.open(chdu, { sha256: nodeSha256 });
    expect(journal.head()?.recordNo).toBe(written.length);
    const report = await journal.verify();
    expect(report.ok).toBe(false);
    expect(report.records).toBe(9);
    expect(await journal.get(11)).toEqual(written[10]);
    const [block] = await chdu.read(victim.address, 1);
    expect(block?.crcOk).toBe(false);
    await chdu.close();
  });

  it('a multi-record append is one write: torn with any of its slots missing, all its records are cut whole (ADR 1101, 1105)', async () => {
    const rnd = seededRandom(SEED + 2);
    const path = join(dir, 'many-source.img');
    const chdu = await ImageFileChdu.open(path, {
      create: true,
      capacityBlocks: 1000,
      serial: 1,
      volumeSerial: 2,
    });
    let writes = 0;
    const writeMany = chdu.writeMany.bind(chdu);
    chdu.writeMany = (data) => {
      writes += 1;
      return writeMany(data);
    };
    const journal = await ChduJournal.open(chdu, { sha256: nodeSha256 });
    const before: JournalRecord[] = [];
    for (const r of mixedRecords(4)) before.push(await journal.append(r));
    const start = slotOffset(chdu.usedBlocks);
    // A window's outcomes and starts, with a multi-block record among them.
    const batch: NewRecord[] = [...mixedRecords(9)].slice(1);
    writes = 0;
    const many = await journal.appendMany(batch);
    expect(writes).toBe(1);
    expect(many.map((r) => r.recordNo)).toEqual(batch.map((_, i) => before.length + i + 1));
    await chdu.close();
    const image = readFileSync(path);
    const slots = (image.length - start) / SLOT_SIZE;
    expect(slots).toBeGreaterThan(batch.length);
    {
      // Intact: every record is read back, the chain holds.
      const whole = await ChduJournal.open(await ImageFileChdu.open(path), { sha256: nodeSha256 });
      const found: JournalRecord[] = [];
      for await (const r of whole.records()) found.push(r);
      expect(found).toEqual([...before, ...many]);
      expect((await whole.verify()).ok).toBe(true);
      await (whole.chdu as ImageFileChdu).close();
    }
    for (let trial = 0; trial < 12; trial++) {
      const { bytes, cut, mask } = tearWrite(image, start, slots, rnd, {
        pMissing: 0.3,
        garbage: trial % 2 === 1,
        cutAtLastLanded: trial % 3 === 2,
      });
      const tornPath = join(dir, `many-torn-${trial}.img`);
      writeFileSync(tornPath, bytes);
      const context = `trial ${trial}, missing ${mask}`;

      const reopened = await ImageFileChdu.open(tornPath);
      expect(reopened.tornBytesAtOpen, context).toBe(cut - start);
      const j = await ChduJournal.open(reopened, { sha256: nodeSha256 });
      // None of the write's records survives, whichever of its slots landed.
      await expectJournalHolds(j, before, context);
      const again = await j.appendMany(batch.slice(0, 2));
      expect(
        again.map((r) => r.recordNo),
        context,
      ).toEqual([before.length + 1, before.length + 2]);
      expect(again[0]!.address, context).toBe(many[0]!.address);
      await reopened.close();
      rmSync(tornPath);
    }
    rmSync(path);
  });
});
