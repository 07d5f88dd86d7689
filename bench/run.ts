import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chduReindexBench } from './chdu-reindex.bench.js';
import { documentStoreBench } from './document-store.bench.js';
import { type Floor, measureFsyncFloor } from './floor.js';
import { qrPaymentBench } from './qr-payment.bench.js';

/**
 * `npm run bench`: measured numbers only (never asserted in tests), each with a ratio to this
 * machine's own floor measured in the same run. Add a benchmark as its own file exporting a
 * {@link Bench} and list it below. Options: `--records N` (default 100000), `--only NAME`.
 */
export interface BenchContext {
  dir: string;
  floor: Floor;
  records: number;
  report(what: string, value: string, details?: Record<string, string | number>): void;
  fail(reason: string): void;
}

export interface Bench {
  name: string;
  run(ctx: BenchContext): Promise<void>;
}

const BENCHES: Bench[] = [chduReindexBench, documentStoreBench, qrPaymentBench];

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const records = Number(arg('--records') ?? 100_000);
const only = arg('--only');
const root = mkdtempSync(join(tmpdir(), 'kasa-bench-'));
let failed = false;
try {
  const floor: Floor = { fsyncPerSecond: measureFsyncFloor(root), readMBps: 0 };
  console.log(
    `kasa bench — ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}, ${tmpdir()}`,
  );
  console.log(`floor: fsync ${floor.fsyncPerSecond.toFixed(0)} durable 1 KiB appends/s`);
  for (const bench of BENCHES.filter((b) => !only || b.name === only)) {
    const dir = mkdtempSync(join(root, `${bench.name}-`));
    console.log(`\n[${bench.name}]`);
    await bench.run({
      dir,
      floor,
      records,
      report(what, value, details = {}) {
        const extra = Object.entries(details)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ');
        console.log(`  ${what.padEnd(30)} ${value.padStart(14)}${extra ? `   (${extra})` : ''}`);
      },
      fail(reason) {
        failed = true;
        console.log(`  FAILED: ${reason}`);
      },
    });
    rmSync(dir, { recursive: true, force: true });
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
