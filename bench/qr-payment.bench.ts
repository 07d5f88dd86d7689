import { createLogger } from '../src/adapters/logging/logger.js';
import { composeKasa } from '../src/compose/compose-kasa.js';
import { defaultServeConfig } from '../src/config/serve-config.js';
import { parsePaymeLink } from '../src/simulators/nop/payme-parser.js';
import { type Summary, summarize } from './lib/stats.js';

const PAYMENTS = 30;

/**
 * Capability 15: "the intent turns PAID within 1 s". A demo register with the embedded NOP simulator
 * over real loopback sockets (mTLS HTTPS, MQTT over TLS): the time from the bank's notification
 * reaching NOP to the long poll answering PAID, for 30 payments one after another.
 */
export async function measureQrPayments(dir: string, payments = PAYMENTS): Promise<Summary> {
  // The marks go beside the bench's data (not into the user's state dir: ADR 0118).
  const config = defaultServeConfig(dir, { port: 0, logLevel: 'silent', markDir: `${dir}-marks` });
  const kasa = await composeKasa(config, {
    logger: createLogger('silent'),
  });
  try {
    await kasa.app.ready();
    const nop = kasa.parts.nopSimulator!;
    const started = Date.now();
    while (!kasa.parts.qrPayments.jobs.status().connected) {
      if (Date.now() - started > 30_000) throw new Error('the NOP session did not connect in 30 s');
      await new Promise((r) => setTimeout(r, 20));
    }
    const latencies: number[] = [];
    for (let i = 0; i < payments; i++) {
      const created = await kasa.app.inject({
        method: 'POST',
        url: '/api/qrpayment/create',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ amount: (100 + i) / 100 }),
      });
      if (created.json().resultCode !== 0) throw new Error(`create: ${created.body}`);
      const intent = created.json().qrPayment as { qrPaymentId: string; payme: string };
      const wait = kasa.app.inject({ method: 'GET', url: `/api/qrpayment/${intent.qrPaymentId}?wait=10` });
      const t0 = performance.now();
      await nop.pay({ order: parsePaymeLink(intent.payme) });
      const answer = (await wait).json().qrPayment as { state: string };
      latencies.push(performance.now() - t0);
      if (answer.state !== 'PAID') throw new Error(`payment ${i} ended ${answer.state}`);
    }
    return summarize(latencies);
  } finally {
    await kasa.close();
  }
}
