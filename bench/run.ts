import { execSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, hostname, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { type BenchOptions, parseBenchArgs, USAGE } from './args.js';
import { runLookupAndStartupFigures } from './figures/journal-figures.js';
import { runOfflineFigure } from './figures/offline.js';
import { measureRendering } from './figures/rendering.js';
import { runStoreFigures } from './figures/store-figures.js';
import { type Floors, measureFloors } from './floor.js';
import { ensureFreshBuild, kasaCommand, repoRoot } from './lib/serve-process.js';
import { formatTable, ms, type Row } from './lib/table.js';
import { measureQrPayments } from './qr-payment.bench.js';

/**
 * `npm run bench` (capability 13): this machine's floors first, then every figure of capability 13 (ADR 0009), one
 * table — figure, value, target, floor, ratio to the floor, PASS/MISS — and the run as JSON in
 * bench/results/<date>-<host>.json. Measured numbers only: nothing here is a unit test, and a MISS
 * does not fail the command (a broken answer does). `--help` lists the scale flags.
 */
const options = parseBenchArgs(process.argv.slice(2));
if (options.help) {
  console.log(USAGE);
  process.exit(0);
}

const log = (line: string) => console.log(line);
// kasa serve runs from dist/ when there is one while seeding and rendering import src/: a stale
// dist/ would be measured silently. Build it first when src/ changed (or refuse).
try {
  ensureFreshBuild(log);
} catch (e) {
  console.error(`bench: ${(e as Error).message}`);
  process.exit(1);
}
if (options.timeLimitS > 0) options.deadlineMs = Date.now() + options.timeLimitS * 1000;
/** Figures left out because the time limit was reached before they started. */
const cut: string[] = [];
/** Whether a part may start: false (and noted) once the time limit has passed. */
const mayStart = (part: string): boolean => {
  if (options.deadlineMs === undefined || Date.now() <= options.deadlineMs) return true;
  cut.push(part);
  log(`\n[${part}] left out: the time limit of ${options.timeLimitS} s was reached`);
  return false;
};
const root = mkdtempSync(join(options.tmpDir ?? tmpdir(), 'kasa-bench-'));
const started = new Date();
const load = { start: loadavg(), end: [] as number[] };
const rows: Row[] = [];
const figures: Record<string, unknown> = {};
let floors: Floors | undefined;
let failure: unknown;

log(
  `kasa bench — ${hostname()}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`,
);
log(
  `load average at start ${load.start.map((l) => l.toFixed(2)).join(' ')}; kasa runs as: ${kasaCommand().how}`,
);
log(`scale: ${describeScale(options)}\n`);
try {
  log('[floors]');
  floors = await measureFloors(root, log);
  if (options.only.has('rendering') && mayStart('rendering')) {
    log('\n[rendering]');
    const r = measureRendering(options.smoke ? 30 : 200);
    figures.rendering = r;
    rows.push(
      {
        figure: '5 electronic receipt PNG p50',
        value: `${r.png.p50.toFixed(2)} ms`,
        target: '≤ 10 ms',
        floor: `${r.pngFloorMs.toFixed(2)} ms zlib of its pixels`,
        ratio: r.png.p50 / r.pngFloorMs,
        pass: r.png.p50 <= 10,
        note: `${r.pngBytes.toLocaleString('en-US')} B; CPU ${r.pngCpuMs.toFixed(2)} ms per PNG (the online sample receipt, 48 characters on 80 mm paper)`,
      },
      {
        figure: '5 ESC/POS bytes p50',
        value: `${r.escpos.p50.toFixed(3)} ms`,
        target: '≤ 1 ms',
        floor: `${r.escposFloorMs.toFixed(3)} ms QR alone`,
        ratio: r.escpos.p50 / r.escposFloorMs,
        pass: r.escpos.p50 <= 1,
        note: `${r.escposBytes.toLocaleString('en-US')} B; CPU ${r.escposCpuMs.toFixed(3)} ms per job`,
      },
    );
    log(
      `  PNG p50 ${r.png.p50.toFixed(2)} ms (${r.pngBytes} B), ESC/POS p50 ${r.escpos.p50.toFixed(3)} ms (${r.escposBytes} B)`,
    );
  }
  if ((options.only.has('store') || options.only.has('memory')) && mayStart('store and memory')) {
    const out = await runStoreFigures(root, floors, options, log);
    rows.push(...out.rows);
    figures.store = out.figures;
  }
  if ((options.only.has('lookups') || options.only.has('startup')) && mayStart('look-ups and start-up')) {
    const out = await runLookupAndStartupFigures(root, floors, options, log);
    rows.push(...out.rows);
    figures.journal = out.figures;
  }
  if (options.only.has('qr-payment') && mayStart('qr-payment')) {
    log('\n[qr-payment]');
    const q = await measureQrPayments(mkdtempSync(join(root, 'qr-')), options.smoke ? 10 : 30);
    figures.qrPayment = q;
    log(`  notification → PAID p50 ${ms(q.p50)}, p99 ${ms(q.p99)}, max ${ms(q.max)} (${q.count} payments)`);
    rows.push({
      figure: '15 QR payment: notification → PAID, max',
      value: ms(q.max),
      target: '≤ 1 s (capability 15)',
      floor: `${ms(floors.http.p50)} HTTP RT`,
      ratio: q.p50 / floors.http.p50,
      pass: q.max <= 1000,
      note: `p50 ${ms(q.p50)} over ${q.count} payments (embedded NOP simulator, mTLS HTTPS + MQTT over TLS on loopback); ratio is p50 ÷ the HTTP round trip`,
    });
  }
  if (options.only.has('offline') && mayStart('offline')) {
    const out = await runOfflineFigure(root, floors, options, log);
    rows.push(...out.rows);
    figures.offline = out.figures;
  }
} catch (e) {
  failure = e;
  console.error(`\nbench FAILED: ${(e as Error).stack ?? e}`);
} finally {
  if (!options.keep) rmSync(root, { recursive: true, force: true });
  else log(`\nkept ${root}`);
}
load.end = loadavg();

log(`\nload average at end ${load.end.map((l) => l.toFixed(2)).join(' ')}`);
log(`\n${formatTable(rows)}\n`);
if (cut.length > 0) {
  log(
    `cut by the time limit (${options.timeLimitS} s; --time-limit 0 for none): ${cut.join(', ')}${rows.some((r) => r.note?.includes('by the time limit')) ? '; the memory figure stopped early (see its note)' : ''}\n`,
  );
}

if (options.results && floors) {
  const dir = join(repoRoot, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${started.toISOString().slice(0, 10)}-${hostname()}.json`);
  const commit = (() => {
    try {
      return execSync('git rev-parse --short HEAD', { cwd: repoRoot }).toString().trim();
    } catch {
      return undefined;
    }
  })();
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        startedAt: started.toISOString(),
        finishedAt: new Date().toISOString(),
        host: hostname(),
        cpus: cpus().length,
        cpuModel: cpus()[0]?.model,
        memoryGiB: Number((totalmem() / 2 ** 30).toFixed(1)),
        node: process.version,
        commit,
        kasa: kasaCommand().how,
        loadAverage: load,
        scale: options,
        floors,
        rows,
        figures,
        ...(cut.length > 0 ? { cutByTimeLimit: cut } : {}),
        ...(failure ? { failure: String((failure as Error).message ?? failure) } : {}),
      },
      (k, v) => (k === 'deadlineMs' ? undefined : v instanceof Set ? [...v] : v),
      2,
    )}\n`,
  );
  log(`results: ${file}`);
}
process.exitCode = failure ? 1 : 0;

function describeScale(o: BenchOptions): string {
  return `${o.stores} stores + ${o.electronic} electronic, memory after ${o.memoryStores.toLocaleString('en-US')} stores, journal of ${o.docs.toLocaleString('en-US')} documents, ${o.lookups} look-ups per kind, offline backlog of ${o.backlog.toLocaleString('en-US')}; figures: ${[...o.only].join(', ')}; time limit ${o.timeLimitS > 0 ? `${o.timeLimitS} s` : 'none'}`;
}
