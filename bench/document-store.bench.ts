import { createLogger } from '../src/adapters/logging/logger.js';
import { composeKasa } from '../src/compose/compose-kasa.js';
import { defaultServeConfig } from '../src/config/serve-config.js';
import { pd } from '../test/support/kasa-harness.js';
import type { Bench, BenchContext } from './run.js';

/**
 * The whole flow of `POST /api/document/store` in-process (validation, PKP, CHDÚ image writes,
 * the SOAP round trip to the embedded SFS simulator with both signatures, the virtual printer's
 * PNG), one document after the other as a register works. Reported against the fsync floor: each
 * document makes at least three durable CHDÚ records (document, SFS exchange, print).
 */
export const documentStoreBench: Bench = {
  name: 'document-store',
  async run(ctx: BenchContext) {
    const count = Math.min(ctx.records, 200);
    // The marks go beside the bench's data (not into the user's state dir: ADR 0118).
    const config = defaultServeConfig(ctx.dir, { port: 0, logLevel: 'silent', markDir: `${ctx.dir}-marks` });
    const kasa = await composeKasa(config, { logger: createLogger('silent') });
    const body = JSON.stringify(pd());
    try {
      const latencies: number[] = [];
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < count; i++) {
        const s = process.hrtime.bigint();
        const res = await kasa.app.inject({
          method: 'POST',
          url: '/api/document/store',
          headers: { 'content-type': 'application/json' },
          payload: body,
        });
        latencies.push(Number(process.hrtime.bigint() - s) / 1e6);
        if (res.json().resultCode !== 0) return ctx.fail(`document ${i + 1}: ${res.body}`);
      }
      const total = Number(process.hrtime.bigint() - t0) / 1e9;
      latencies.sort((a, b) => a - b);
      const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!;
      const perSecond = count / total;
      ctx.report('documents stored online', `${perSecond.toFixed(1)} docs/s`, {
        documents: count,
        'p50 ms': pct(0.5).toFixed(1),
        'p95 ms': pct(0.95).toFixed(1),
        'vs fsync floor (3 records/doc)': `${(((perSecond * 3) / ctx.floor.fsyncPerSecond) * 100).toFixed(1)}%`,
      });
    } finally {
      await kasa.close();
    }
  },
};
