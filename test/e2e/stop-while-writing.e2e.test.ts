import { afterEach, describe, expect, it } from 'vitest';
import { EscPosPrinterSim } from '../../src/simulators/printer/escpos-printer-sim.js';
import { type Harness, type Json, pd, startHarness } from '../support/kasa-harness.js';

/**
 * ADR 0808: a stop (SIGTERM → close()) while a store is still writing. A paced print's pauses are
 * cut short so the stop ends well inside the unit file's TimeoutStopSec=30, and the CHDÚ, printer
 * and SFS are closed only once the request has written what it must — never a 500 for a stored
 * document, never a document left without its print record to be printed a second time.
 */
let restarted: Harness | undefined;
let printerSim: EscPosPrinterSim | undefined;
afterEach(async () => {
  await restarted?.close();
  restarted = undefined;
  await printerSim?.close();
  printerSim = undefined;
});

const untilWritten = async (h: Harness, before: number) => {
  while ((h.kasa.parts.journal.head()?.recordNo ?? 0) === before) await new Promise((r) => setTimeout(r, 2));
};

describe('a stop while a store is still writing', () => {
  it('cuts a paced print short: the POS gets its answer, the stop is quick, nothing is left to print', async () => {
    printerSim = await EscPosPrinterSim.start({ rowsPerSecond: 200_000 });
    let paused: () => void = () => undefined;
    const inPause = new Promise<void>((resolve) => {
      paused = resolve;
    });
    // The API allows printDelay up to 10 s a pause (two minutes a job): real timers here.
    const sleep = (ms: number) => {
      paused();
      return new Promise<void>((resolve) => setTimeout(resolve, ms));
    };
    const h = await startHarness({
      printer: { kind: 'tcp', host: printerSim.host, port: printerSim.port },
      printerSleep: sleep,
    });
    const store = h.post('/api/document/store', pd({ printer: { windowSize: 256, printDelay: 10_000 } }));
    await inPause;
    const t0 = Date.now();
    await h.close();
    const stopMs = Date.now() - t0;
    const answer = await store;
    expect(answer.body.resultCode).toBe(0);
    expect(stopMs).toBeLessThan(8_000);

    restarted = await startHarness({ dataDir: h.dataDir });
    const status = (await restarted.get('/api/status/get')).body as Json;
    expect(status.state).toBe('READY');
    // Nothing waits to be printed: the original is not printed a second time.
    expect((await restarted.post('/api/document/print', {})).body.resultCode).not.toBe(0);
  }, 60_000);

  /**
   * A store waiting on the SFS when the stop comes; `stopWriterWaitMs` shortens the stop's wait
   * below the SFS's answer. Answered 0, printed once, and nothing left after a restart.
   */
  async function stopWhileWaitingOnSfs(options: { sfsLatencyMs: number; stopWriterWaitMs?: number }) {
    const h = await startHarness({
      sfsTimeoutMs: 20_000,
      ...(options.stopWriterWaitMs === undefined ? {} : { stopWriterWaitMs: options.stopWriterWaitMs }),
    });
    h.sim.setLatency(options.sfsLatencyMs, 1);
    const before = h.kasa.parts.journal.head()?.recordNo ?? 0;
    const store = h.post('/api/document/store', pd());
    await untilWritten(h, before);
    await h.close();
    const answer = await store;
    expect(answer.status).toBe(200);
    expect(answer.body.resultCode).toBe(0);
    expect(h.printer.history.length).toBe(1);

    restarted = await startHarness({ dataDir: h.dataDir });
    expect((await restarted.get('/api/status/get')).body.state).toBe('READY');
    expect(restarted.printer.history.length).toBe(0);
  }

  it('waits for a request still waiting on the SFS before closing the CHDÚ under it', async () => {
    await stopWhileWaitingOnSfs({ sfsLatencyMs: 1_000 });
  }, 60_000);

  it('past its wait, closes the SFS connection first and lets the request write what it got', async () => {
    // The stop's wait (shortened here) ends while the SFS still holds the answer.
    await stopWhileWaitingOnSfs({ sfsLatencyMs: 1_500, stopWriterWaitMs: 200 });
  }, 60_000);
});
