import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { SEND_WINDOW } from '../../src/core/offline/send-window.js';
import type { BenchOptions } from '../args.js';
import { documentFloorMs, type Floors } from '../floor.js';
import { storeBody } from '../lib/bodies.js';
import { JsonClient } from '../lib/http-client.js';
import { type ServeProcess, startServe } from '../lib/serve-process.js';
import { startSfsSim } from '../lib/sfs-sim-process.js';
import { msSince, summarize } from '../lib/stats.js';
import { count, ms, p99Text, type Row } from '../lib/table.js';

/** The issue's backlog for figure 4: the time to register it is judged at that size only. */
const ISSUE_BACKLOG = 10_000;

import {
  chduArg,
  createSeedRegister,
  planRecentSeed,
  seedDocuments,
  syncSeededIndex,
} from '../seed/bulk-seed.js';

const DEMO_CA = 'demo-ca';

/**
 * Figure 4 (capability 13): a register with `backlog` offline documents (bulk-seeded: their first
 * attempt found the SFS unreachable) and the SFS as its own process (`kasa sfs-sim` on the
 * register's demo CA) answering 503 to everything. kasa starts, the POS stores one document after
 * the other; then the SFS returns (`/__sim/reset`) and the clock runs until the status says no
 * document waits, while the POS goes on storing and its latency is recorded.
 */
export async function runOfflineFigure(
  root: string,
  floors: Floors,
  options: BenchOptions,
  log: (line: string) => void,
): Promise<{ rows: Row[]; figures: Record<string, unknown> }> {
  const backlog = options.backlog;
  const plan = planRecentSeed(mkdtempSync(join(root, 'offline-')), backlog);
  log(`\n[offline backlog of ${count(backlog)}]`);
  await createSeedRegister(plan);
  await seedDocuments(plan, 0, backlog, undefined, undefined, { offline: true });
  await syncSeededIndex(plan);
  const caDir = join(plan.dataDir, DEMO_CA);
  const sim = await startSfsSim(caDir);
  let serve: ServeProcess | undefined;
  try {
    await post(sim.base, '/__sim/fault', { kind: 'http-error', status: 503, count: 10_000_000 });
    serve = await startServe(
      plan.dataDir,
      ['--chdu', chduArg(plan), '--sfs-url', sim.url, '--sfs-trust', join(caDir, 'ca-cert.pem')],
      options.cpuProf ? { nodeArgs: ['--cpu-prof', '--cpu-prof-dir', join(options.cpuProf, 'offline')] } : {},
    );
    const pos = new JsonClient(serve.url);
    const waiting = async (): Promise<number> => {
      const status = await pos.get('/api/status/get');
      const components = (status.body?.components ?? []) as Array<{
        component: string;
        details?: { unsentDocuments?: number };
      }>;
      return (
        components.find((c) => c.component === 'OFFLINE_BACKLOG')?.details?.unsentDocuments ?? Number.NaN
      );
    };
    const before = await waiting();
    if (before !== backlog)
      throw new Error(`the register reports ${before} waiting documents, ${backlog} were seeded`);
    // The SFS returns; the POS goes on storing (its first answer online wakes the sender up).
    await post(sim.base, '/__sim/reset', {});
    const t0 = process.hrtime.bigint();
    const latencies: number[] = [];
    let left = before;
    let lastCheck = 0;
    const cpu0 = serve.cpuMs();
    const simCpu0 = sim.cpuMs();
    while (left > 0) {
      if (msSince(t0) > 600_000) throw new Error(`${left} documents still wait after 10 minutes`);
      const s = process.hrtime.bigint();
      const answer = await pos.post('/api/document/store', storeBody());
      latencies.push(msSince(s));
      if (answer.body?.resultCode !== 0)
        throw new Error(`store during the backlog: ${JSON.stringify(answer.body).slice(0, 300)}`);
      if (msSince(t0) - lastCheck >= 250) {
        lastCheck = msSince(t0);
        left = await waiting();
      }
    }
    const seconds = msSince(t0) / 1000;
    const cpuMs = serve.cpuMs() - cpu0;
    const simCpuMs = sim.cpuMs() - simCpu0;
    pos.close();
    const latency = summarize(latencies);
    log(
      `  ${count(backlog)} registered ${seconds.toFixed(1)} s after the SFS returned (${(backlog / seconds).toFixed(0)} docs/s); meanwhile ${latency.count} stores: p50 ${ms(latency.p50)}, p99 ${ms(latency.p99)}, max ${ms(latency.max)}; CPU kasa ${(cpuMs / 1000).toFixed(1)} s + SFS simulator ${(simCpuMs / 1000).toFixed(1)} s of the ${(os.availableParallelism() * seconds).toFixed(0)} core-seconds the run had at most`,
    );
    const floor = documentFloorMs(floors);
    return {
      rows: [
        {
          figure: `4 offline backlog of ${count(backlog)} registered after the SFS returns`,
          value: `${seconds.toFixed(1)} s (${(backlog / seconds).toFixed(0)} docs/s)`,
          target: '≤ 30 s for 10,000 (≥ 334 docs/s)',
          floor: `${(backlogFloorMs(backlog, floors) / 1000).toFixed(1)} s`,
          ratio: seconds / (backlogFloorMs(backlog, floors) / 1000),
          pass: seconds <= 30,
          // A smaller backlog drains in less time at the same rate: the time says nothing below
          // the target's 10,000 (the rate is in the value and the note).
          scale: { measured: backlog, required: ISSUE_BACKLOG },
          note: `the SFS as its own process (kasa sfs-sim); floor: per resend 1 RSA sign + 1 HTTP round trip, and per window of ${SEND_WINDOW} resends 2 fsyncs (its starts before its requests, ADR 0705, and its outcomes; ADR 1105) — one thread, one request at a time; kasa used ${(cpuMs / 1000).toFixed(1)} s of CPU and the SFS simulator ${(simCpuMs / 1000).toFixed(1)} s for the resends and ${latency.count} stores meanwhile, of ${(os.availableParallelism() * seconds).toFixed(0)} core-seconds (${os.availableParallelism()} cores × the run's time: an upper bound, the machine's other work included)${backlog < ISSUE_BACKLOG ? `; measured with ${count(backlog)} documents, the target's scale is 10,000 (--backlog 10000): at this rate 10,000 would take ${((ISSUE_BACKLOG * seconds) / backlog).toFixed(0)} s` : ''}`,
        },
        {
          figure: '4 POS stores meanwhile p50 / p99 / max',
          value: `${ms(latency.p50)} / ${p99Text(latency)} / ${ms(latency.max)}`,
          target: 'p99 ≤ 50 ms',
          floor: `${ms(floor)}/doc`,
          ratio: latency.p99 / floor,
          pass: latency.p99 <= 50,
        },
      ],
      figures: { backlog, seconds, cpuMs, simCpuMs, cores: os.availableParallelism(), stores: latency },
    };
  } finally {
    await serve?.stop();
    await sim.stop();
  }
}

async function post(base: string, path: string, body: unknown): Promise<void> {
  const client = new JsonClient(base);
  try {
    const answer = await client.post(path, body);
    if (answer.status !== 200) throw new Error(`${path}: HTTP ${answer.status}`);
  } finally {
    client.close();
  }
}

/** Figure 4's floor: what the resends need at the least, one after the other on one thread (ADR 1105). */
function backlogFloorMs(backlog: number, floors: Floors): number {
  const windows = Math.ceil(backlog / SEND_WINDOW);
  return backlog * (floors.signMs + floors.http.p50) + windows * 2 * floors.fsyncMs;
}
