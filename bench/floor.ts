import { spawn } from 'node:child_process';
import { generateKeyPairSync, sign } from 'node:crypto';
import { closeSync, fdatasyncSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { firstAnswer, JsonClient } from './lib/http-client.js';
import { freePort, rssOf } from './lib/serve-process.js';
import { msSince, round, type Summary, summarize, timeRepeated } from './lib/stats.js';

/**
 * This machine's floors, measured at the start of every run (capability 13), so each figure carries a
 * ratio that means something on any machine and under any load: what one durable append, one
 * RSA-2048 signature, one bare HTTP exchange and one SQLite point query cost here, now.
 */
export interface Floors {
  /** 512 bytes written and fdatasync'd, ms (p50). */
  fsyncMs: number;
  /** RSA-2048 PKCS#1 v1.5 SHA-256 signature with node:crypto, ms. */
  signMs: number;
  /** A JSON POST to a bare node:http server in another process over loopback keep-alive, ms. */
  http: Summary;
  /** SQLite primary-key point query (prepared, 1.5 KB rows), ms. */
  sqlitePointMs: number;
  /** Plain SQLite inserts (WAL, 1,000 rows a transaction), rows/s: the index cannot be built faster. */
  sqliteInsertsPerS: number;
  /** Spawn of a bare node:http server process until its first answered request, ms. */
  processStartMs: number;
  /** RSS of that bare server after serving, MB. */
  processRssMB: number;
}

/** The per-document floor: 2 fsyncs of 512 B + 2 RSA signatures + one HTTP round trip. */
export function documentFloorMs(f: Floors): number {
  return 2 * f.fsyncMs + 2 * f.signMs + f.http.p50;
}

/** A look-up's floor: one HTTP round trip plus one SQLite point query. */
export function lookupFloorMs(f: Floors, percentile: 'p50' | 'p99'): number {
  return f.http[percentile] + f.sqlitePointMs;
}

export async function measureFloors(dir: string, log: (line: string) => void): Promise<Floors> {
  const work = mkdtempSync(join(dir, 'floor-'));
  try {
    const fsyncMs = measureFsync(work);
    log(`  fsync 512 B               ${fsyncMs.toFixed(3)} ms`);
    const signMs = measureSign();
    log(`  RSA-2048 SHA-256 sign     ${signMs.toFixed(3)} ms`);
    const bare = await measureBareHttp();
    log(
      `  bare node:http JSON RT    p50 ${bare.http.p50.toFixed(3)} ms, p99 ${bare.http.p99.toFixed(3)} ms; process start→first answer ${bare.startMs.toFixed(0)} ms, RSS ${bare.rssMB.toFixed(0)} MB`,
    );
    const sqlite = measureSqlite(work);
    log(
      `  SQLite point query        ${sqlite.pointMs.toFixed(4)} ms; plain inserts ${sqlite.insertsPerS.toFixed(0)} rows/s`,
    );
    return {
      fsyncMs,
      signMs,
      http: bare.http,
      sqlitePointMs: sqlite.pointMs,
      sqliteInsertsPerS: sqlite.insertsPerS,
      processStartMs: bare.startMs,
      processRssMB: bare.rssMB,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function measureFsync(dir: string, appends = 400): number {
  const fd = openSync(join(dir, 'fsync.dat'), 'w');
  const record = Buffer.alloc(512, 0x61);
  const times: number[] = [];
  try {
    for (let i = 0; i < appends; i++) {
      const t0 = process.hrtime.bigint();
      writeSync(fd, record);
      fdatasyncSync(fd);
      times.push(msSince(t0));
    }
  } finally {
    closeSync(fd);
  }
  return summarize(times).p50;
}

function measureSign(): number {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const data = Buffer.from('x'.repeat(300));
  return timeRepeated(() => sign('sha256', data, privateKey), 500, 50);
}

async function measureBareHttp(requests = 2000): Promise<{ http: Summary; startMs: number; rssMB: number }> {
  const port = await freePort();
  const t0 = process.hrtime.bigint();
  const child = spawn(
    process.execPath,
    [join(import.meta.dirname, 'lib', 'bare-http-server.mjs'), String(port)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const url = `http://127.0.0.1:${port}`;
    const body = { type: 'PD', amount: 7.45, documentEntries: [{ name: 'Káva', price: 2.5, quantity: 2 }] };
    await firstAnswer(url, '/', body, 30_000);
    const startMs = msSince(t0);
    const client = new JsonClient(url);
    const times: number[] = [];
    for (let i = 0; i < requests; i++) {
      const s = process.hrtime.bigint();
      await client.post('/', body);
      if (i >= 100) times.push(msSince(s));
    }
    client.close();
    return { http: summarize(times), startMs, rssMB: rssOf(child.pid!).rssMB };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

function measureSqlite(dir: string, rows = 20_000): { pointMs: number; insertsPerS: number } {
  const file = join(dir, 'floor.sqlite');
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
    const insert = db.prepare('INSERT INTO t (id, body) VALUES (?, ?)');
    const body = 'x'.repeat(1500);
    const batch = db.transaction((from: number, to: number) => {
      for (let i = from; i < to; i++) insert.run(i, body);
    });
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < rows; i += 1000) batch(i, Math.min(rows, i + 1000));
    const insertsPerS = rows / (msSince(t0) / 1000);
    const get = db.prepare('SELECT * FROM t WHERE id = ?');
    let i = 0;
    const pointMs = timeRepeated(() => get.get((i++ * 7919) % rows), 200, 2000);
    return { pointMs: round(pointMs, 5), insertsPerS };
  } finally {
    db.close();
  }
}
