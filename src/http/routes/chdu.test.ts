import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { ChduLiteChdu } from '../../adapters/chdu/chdu-lite-chdu.js';
import { ImageFileChdu } from '../../adapters/chdu/image-file-chdu.js';
import { nodeSha256 } from '../../adapters/crypto/node-sha256.js';
import { SqliteJournalIndex } from '../../adapters/index/sqlite-journal-index.js';
import { createLogger } from '../../adapters/logging/logger.js';
import { TcpTransport } from '../../adapters/transport/byte-transport.js';
import { FiscalError } from '../../core/fiscal-error.js';
import { ChduJournal } from '../../core/journal/chdu-journal.js';
import { chduInfo } from '../../core/services/chdu-info.js';
import { syncJournalIndex } from '../../core/services/journal-sync.js';
import { Readiness } from '../../core/services/register-status.js';
import { buildHttpApp, type KasaApp } from '../app.js';
import { chduRoutes } from './chdu.js';

const quiet = new Writable({ write: (_c, _e, cb) => cb() });
let app: KasaApp | undefined;
let dir: string | undefined;

afterEach(async () => {
  await app?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function build(info: Parameters<typeof chduRoutes>[0]['info']): Promise<KasaApp> {
  const readiness = new Readiness();
  // Even while the register refuses fiscal work, chduinfo answers (ADR 0008 §11).
  readiness.add({ refusal: () => new FiscalError('CHDU_WRITE_ERROR', 'consistency check failed') });
  app = await buildHttpApp({
    logger: createLogger('silent', quiet as never),
    readiness,
    routes: [chduRoutes({ info })],
    version: '0.0.0',
  });
  await app.ready();
  return app;
}

describe('GET /api/chduinfo', () => {
  it('answers the CHDÚ facts, also while the register refuses fiscal work', async () => {
    dir = mkdtempSync(join(tmpdir(), 'kasa-chduinfo-'));
    const chdu = await ImageFileChdu.open(join(dir, 'chdu.img'), {
      create: true,
      capacityBlocks: 1000,
      serial: 42,
    });
    const journal = await ChduJournal.open(chdu, { sha256: nodeSha256 });
    await journal.append({ type: 'free-text', body: { text: 'hello' } });
    const index = SqliteJournalIndex.open(join(dir, 'index.sqlite'));
    await syncJournalIndex(journal, index);
    const res = await (await build(() => chduInfo({ chdu, journal, index }))).inject('/api/chduinfo');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      resultCode: 0,
      model: 'kasa image file',
      target: `image:${join(dir, 'chdu.img')}`,
      serial: 42,
      protocolVersion: '1.3',
      blockDataSize: 505,
      capacityBlocks: 1000,
      usedBlocks: 1,
      freeBlocks: 999,
      capacityBytes: 505_000,
      usedBytes: 505,
      recordCount: 1,
      locked: false,
      lastWriteAt: journal.head()?.writtenAt,
      tornBytesAtOpen: 0,
      index: { state: 'current', highWaterMark: 1 },
    });
    index.close();
    await chdu.close();
  });

  it('answers the CHDÚ’s code when it cannot be reached (200 → HTTP 500)', async () => {
    dir = mkdtempSync(join(tmpdir(), 'kasa-chduinfo-'));
    const image = await ImageFileChdu.open(join(dir, 'chdu.img'), { create: true, capacityBlocks: 10 });
    const journal = await ChduJournal.open(image, { sha256: nodeSha256 });
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    await new Promise<void>((r) => server.close(() => r()));
    const unplugged = new ChduLiteChdu(
      new TcpTransport('127.0.0.1', port),
      `chdu-lite+tcp://127.0.0.1:${port}`,
    );
    const res = await (await build(() => chduInfo({ chdu: unplugged, journal }))).inject('/api/chduinfo');
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ resultCode: 200 });
    await image.close();
  });
});
