import { storeBody } from '../lib/bodies.js';
import { JsonClient } from '../lib/http-client.js';
import type { ServeProcess } from '../lib/serve-process.js';
import { msSince, type Summary, summarize } from '../lib/stats.js';

export interface StoreRun {
  documents: number;
  perSecond: number;
  latency: Summary;
  /** CPU time `kasa serve` spent per document (all threads), ms. */
  cpuMsPerDocument: number;
}

/**
 * Stores `count` documents one after the other over real HTTP, as one POS does: each request waits
 * for the answer before the next one starts. Every answer must be resultCode 0 (and carry the PNG
 * when `electronic`), or the run fails: a fast wrong answer is not a figure.
 */
export async function storeSequentially(
  serve: ServeProcess,
  count: number,
  options: { electronic?: boolean; externalIdPrefix?: string } = {},
  afterEach: () => void = () => undefined,
): Promise<StoreRun> {
  const client = new JsonClient(serve.url);
  const latencies: number[] = [];
  const t0 = process.hrtime.bigint();
  const cpu0 = serve.cpuMs();
  try {
    for (let i = 0; i < count; i++) {
      const body = storeBody({
        ...(options.electronic ? { electronicReceipt: true } : {}),
        ...(options.externalIdPrefix ? { externalId: `${options.externalIdPrefix}${i}` } : {}),
      });
      const s = process.hrtime.bigint();
      const answer = await client.post('/api/document/store', body);
      latencies.push(msSince(s));
      if (answer.body?.resultCode !== 0) {
        throw new Error(`store ${i + 1}: HTTP ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
      }
      if (options.electronic && typeof answer.body.document?.electronicReceipt !== 'string') {
        throw new Error(`store ${i + 1}: no electronic receipt in the answer`);
      }
      afterEach();
    }
  } finally {
    client.close();
  }
  const seconds = msSince(t0) / 1000;
  return {
    documents: count,
    perSecond: count / seconds,
    latency: summarize(latencies),
    cpuMsPerDocument: (serve.cpuMs() - cpu0) / count,
  };
}
