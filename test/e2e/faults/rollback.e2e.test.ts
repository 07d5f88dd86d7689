import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/program.js';
import { type Harness, type Json, pd, startHarness } from '../../support/kasa-harness.js';
import { ManualClock } from '../../support/merchant-register.js';
import { waitFor } from '../../support/wait-for.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function sell(harness: Harness, n: number): Promise<string[]> {
  const numbers: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await harness.post('/api/document/store', pd());
    expect(res.body.resultCode).toBe(0);
    numbers.push(res.body.document.documentNumber);
  }
  return numbers;
}

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(
    args,
    {
      env: {},
      cwd: process.cwd(),
      stdout: (t) => {
        out += t;
      },
      stderr: (t) => {
        err += t;
      },
    },
    'test',
  );
  return { code, out, err };
}

/** ADR 0118: the high-water mark outside the data dir catches an older copy put back. */
describe('a CHDÚ rolled back to an older copy', () => {
  it('is refused with 201 and a sentence, never reissuing numbers; accept-rollback is the operator override', async () => {
    const root = mkdtempSync(join(tmpdir(), 'kasa-rollback-'));
    const dataDir = join(root, 'data');
    const markDir = join(root, 'state', 'marks');
    const clock = new ManualClock(new Date('2026-03-02T09:00:00Z'));
    h = await startHarness({ dataDir, markDir, clock });
    const early = await sell(h, 6);
    await h.close();
    cpSync(dataDir, join(root, 'backup'), { recursive: true });
    h = await startHarness({ dataDir, markDir, clock });
    const later = await sell(h, 6);
    expect(later.at(-1)).toMatch(/\/12$/);
    const reached = h.kasa.parts.journal.head()!.recordNo;
    await h.close();
    expect(readdirSync(markDir)).toHaveLength(1); // one mark, keyed by the CHDÚ's serials

    // The shop puts back the older copy of the data dir (image and index together).
    rmSync(dataDir, { recursive: true });
    cpSync(join(root, 'backup'), dataDir, { recursive: true });
    h = await startHarness({ dataDir, markDir, clock });
    const status = (await h.get('/api/status/get')).body;
    expect(status).toMatchObject({ state: 'CHDU_WRITE_ERROR', reasonCode: 201 });
    expect(status.reason).toContain(`document ${early.at(-1)}`);
    expect(status.reason).toContain(`document ${later.at(-1)}`);
    expect(status.reason).toContain('kasa chdu accept-rollback');
    const refused = await h.post('/api/document/store', pd());
    expect(refused.body).toMatchObject({
      resultCode: 201,
      rollback: { kind: 'behind', markedRecordNo: reached },
    });
    expect((await h.post('/api/cash', { amount: 10 })).body.resultCode).toBe(201);
    expect(h.kasa.parts.index.lastDocumentNo()).toBe(6); // nothing issued under 7–12
    // Look-ups answer from what the older copy holds.
    expect((await h.post('/api/document/get', {})).body.document.documentNumber).toBe(early.at(-1));
    await h.close();
    h = undefined;

    const accepted = await cli(['chdu', 'accept-rollback', '--data-dir', dataDir, '--mark-dir', markDir]);
    expect(accepted.code).toBe(0);
    expect(accepted.out).toContain(`the document numbers after ${early.at(-1)} will be issued again`);
    h = await startHarness({ dataDir, markDir, clock });
    expect((await h.get('/api/status/get')).body.state).toBe('READY');
    expect((await sell(h, 1))[0]).toMatch(/\/7$/);
    // Nothing left to accept now.
    await h.close();
    h = undefined;
    expect(
      (await cli(['chdu', 'accept-rollback', '--data-dir', dataDir, '--mark-dir', markDir])).out,
    ).toContain('nothing to accept');
  });

  it('an older copy written on elsewhere (same record number, other chain) is refused too', async () => {
    const root = mkdtempSync(join(tmpdir(), 'kasa-rollback-'));
    const dataDir = join(root, 'data');
    const markDir = join(root, 'marks');
    h = await startHarness({ dataDir, markDir });
    await sell(h, 2);
    await h.close();
    cpSync(dataDir, join(root, 'backup'), { recursive: true });
    h = await startHarness({ dataDir, markDir });
    await sell(h, 2);
    await h.close();
    rmSync(dataDir, { recursive: true });
    cpSync(join(root, 'backup'), dataDir, { recursive: true });
    // The copy goes on on another computer (its own mark dir) past the marked record…
    h = await startHarness({ dataDir, markDir: join(root, 'elsewhere') });
    await sell(h, 3);
    await h.close();
    // …and comes back.
    h = await startHarness({ dataDir, markDir });
    const refused = await h.post('/api/document/store', pd());
    expect(refused.body).toMatchObject({ resultCode: 201, rollback: { kind: 'diverged' } });
  });

  it('an unreadable mark refuses with 201 instead of guessing', async () => {
    const root = mkdtempSync(join(tmpdir(), 'kasa-rollback-'));
    const markDir = join(root, 'marks');
    h = await startHarness({ dataDir: join(root, 'data'), markDir });
    await sell(h, 1);
    await h.close();
    const [file] = readdirSync(markDir);
    writeFileSync(join(markDir, file!), '{"version": 1, "recordNo": ');
    h = await startHarness({ dataDir: join(root, 'data'), markDir });
    const status = (await h.get('/api/status/get')).body;
    expect(status).toMatchObject({ reasonCode: 201 });
    expect(status.reason).toContain('high-water mark');
  });

  it('a mark that cannot be written is a WARNING on the CHDU entry naming the file and the cause; sales go on', async () => {
    const root = mkdtempSync(join(tmpdir(), 'kasa-rollback-'));
    // The mark dir's parent is a regular file: no folder can be made there, also for root.
    writeFileSync(join(root, 'state'), 'not a folder');
    const markDir = join(root, 'state', 'marks');
    h = await startHarness({ dataDir: join(root, 'data'), markDir });
    await sell(h, 1);
    const chdu = async () =>
      ((await h!.get('/api/status/get')).body.components as Json[]).find((c) => c.component === 'CHDU');
    await waitFor(async () => (await chdu()).state === 'WARNING', 10_000);
    const entry = await chdu();
    expect(entry).toMatchObject({ reasonCode: 201, details: { mark: expect.stringContaining(markDir) } });
    expect(entry.reason).toContain(markDir);
    expect(entry.details.markProblem).toMatch(/ENOTDIR|EEXIST/);
    expect((await h.get('/api/status/get')).body.state).toBe('READY');

    // The folder becomes writable: the next document writes the mark and the warning goes.
    rmSync(join(root, 'state'));
    mkdirSync(markDir, { recursive: true });
    await sell(h, 1);
    await waitFor(async () => (await chdu()).state === 'OK', 10_000);
    expect(readdirSync(markDir)).toHaveLength(1);
  });
});
