import { afterEach, describe, expect, it } from 'vitest';
import { EscPosPrinterSim } from '../../src/simulators/printer/escpos-printer-sim.js';
import { type Harness, type Json, pd, startHarness } from '../support/kasa-harness.js';

let h: Harness | undefined;
let sim: EscPosPrinterSim | undefined;
afterEach(async () => {
  await h?.close();
  await sim?.close();
  h = undefined;
  sim = undefined;
});

/** A pause between print windows that holds until the test opens it. */
function gatedSleep() {
  let entered: () => void = () => undefined;
  const inPause = new Promise<void>((ok) => {
    entered = ok;
  });
  let open: () => void = () => undefined;
  const gate = new Promise<void>((ok) => {
    open = ok;
  });
  const pauses: number[] = [];
  return {
    pauses,
    inPause,
    open: () => open(),
    sleep: async (ms: number) => {
      pauses.push(ms);
      entered();
      await gate;
    },
  };
}

/** Resolves with the answer, or with 'still waiting' if it has not come while the job is held. */
async function answered<T>(p: Promise<T>): Promise<T | 'still waiting'> {
  return Promise.race([
    p,
    new Promise<'still waiting'>((ok) => setTimeout(() => ok('still waiting'), 15_000)),
  ]);
}

describe('a long paced print holds the printer, not the register (ADR 0514, 0516)', () => {
  it('status, version, chduinfo and printer answer while a store is held in a print pause; a second writer gets 300', async () => {
    sim = await EscPosPrinterSim.start({ rowsPerSecond: 200_000 });
    const gate = gatedSleep();
    h = await startHarness({
      printer: { kind: 'tcp', host: sim.host, port: sim.port },
      printerSleep: gate.sleep,
    });
    let done = false;
    const store = h
      .post('/api/document/store', pd({ printer: { windowSize: 256, printDelay: 10_000 } }))
      .finally(() => {
        done = true;
      });
    await gate.inPause;
    const printer = await answered(h.get('/api/printer'));
    expect(printer).not.toBe('still waiting');
    expect((printer as { body: Json }).body).toMatchObject({
      resultCode: 0,
      status: { ready: true, connected: true, busy: true },
    });
    const status = await answered(h.get('/api/status/get'));
    expect(status).not.toBe('still waiting');
    const entry = (status as { body: Json }).body.components.find((c: Json) => c.component === 'PRINTER');
    expect(entry).toMatchObject({ state: 'OK', details: { busy: true } });
    // The document is not printed yet, but it is being printed: the status says the register is
    // busy with it (a writer gets 300 now) instead of sending the shop to POST /api/document/print.
    const overall = (status as { body: Json }).body;
    expect(overall).toMatchObject({ state: 'BUSY', reasonCode: 300 });
    expect(overall.reason).toContain('is still with the store request that issues it: it is being printed');
    expect(overall.reason).not.toContain('print it with POST /api/document/print first');
    expect((await h.post('/api/document/print', {})).body.resultCode).toBe(300);
    const chdu = await answered(h.get('/api/chduinfo'));
    expect((chdu as { body: Json }).body).toMatchObject({ resultCode: 0, printer: { ready: true } });
    const version = await answered(h.get('/api/version'));
    expect((version as { body: Json }).body.resultCode).toBe(0);
    // One writer at a time (ADR 0003): the store holds the lock while it prints.
    expect((await h.post('/api/cash', { amount: 5 })).body.resultCode).toBe(300);
    expect(done).toBe(false);
    gate.open();
    expect((await store).body.resultCode).toBe(0);
    expect(gate.pauses.every((ms) => ms === 10_000)).toBe(true);
    expect(gate.pauses.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(120_000);
    expect((await h.get('/api/printer')).body.status.busy).toBeUndefined();
    expect((await h.get('/api/status/get')).body.reasonCode).not.toBe(508);
  }, 90_000);

  it('while a store waits for the SFS, the status says so: BUSY, not "not printed" (508)', async () => {
    h = await startHarness({ sfsTimeoutMs: 20_000 });
    h.sim.setLatency(3_000, 1);
    const store = h.post('/api/document/store', pd());
    let overall: Json;
    const until = Date.now() + 15_000;
    do {
      overall = (await h.get('/api/status/get')).body;
      if (overall.reasonCode !== 0 && overall.state !== 'READY') break;
      await new Promise((r) => setTimeout(r, 20));
    } while (Date.now() < until);
    expect(overall).toMatchObject({ state: 'BUSY', reasonCode: 300 });
    expect(overall.reason).toContain("it waits for the SFS's answer");
    expect(overall.reason).not.toContain('printed by');
    expect((await h.post('/api/cash', { amount: 5 })).body.resultCode).toBe(300);
    expect((await store).body.resultCode).toBe(0);
    expect((await h.get('/api/status/get')).body.state).toBe('READY');
  }, 60_000);

  it('a store whose paced print fails: status then says to print it with /api/document/print', async () => {
    sim = await EscPosPrinterSim.start({ rowsPerSecond: 200_000 });
    h = await startHarness({ printer: { kind: 'tcp', host: sim.host, port: sim.port } });
    sim.set({ paper: 'out' });
    expect((await h.post('/api/document/store', pd())).body).toMatchObject({ resultCode: 507 });
    const s = (await h.get('/api/status/get')).body;
    expect(s).toMatchObject({ state: 'LAST_DOCUMENT_NOT_PRINTED', reasonCode: 508 });
    expect(s.reason).toContain('print it with POST /api/document/print first');
  }, 60_000);

  it('a window below 256 bytes or a pause above 10 s is refused with 701 naming the member, before anything is stored', async () => {
    h = await startHarness();
    for (const [printer, field] of [
      [{ windowSize: 1, printDelay: 1000 }, 'printer.windowSize'],
      [{ windowSize: 255 }, 'printer.windowSize'],
      [{ printDelay: 10_001 }, 'printer.printDelay'],
    ] as const) {
      const res = await h.post('/api/document/store', pd({ printer }));
      expect(res.body.resultCode, JSON.stringify(printer)).toBe(701);
      expect(res.body.error).toContain(field);
    }
    expect(
      (await h.post('/api/print', { printData: 'x', printer: { windowSize: 100 } })).body.resultCode,
    ).toBe(701);
    expect(
      (await h.post('/api/document/store', pd({ printer: { windowSize: 0, printDelay: 0 } }))).body
        .resultCode,
    ).toBe(0);
    expect(h.kasa.parts.index.findDocument({ by: 'last' })?.document.documentNo).toBe(1);
  }, 60_000);
});
