import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/adapters/logging/logger.js';
import { DEFAULT_PROFILE } from '../../src/config/printer-profile.js';
import { EscPosPrinterSim } from '../../src/simulators/printer/escpos-printer-sim.js';
import { type Harness, pd, startHarness } from '../support/kasa-harness.js';

let h: Harness | undefined;
let sim: EscPosPrinterSim | undefined;
afterEach(async () => {
  await h?.close();
  await sim?.close();
  h = undefined;
  sim = undefined;
});

/** A loopback port nothing listens on (yet). */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** A logger whose JSON lines are kept. */
function recordingLogger(): {
  logger: ReturnType<typeof createLogger>;
  lines: Array<Record<string, unknown>>;
} {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of String(chunk).split('\n'))
        if (l.trim()) lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger('warn', sink), lines };
}

type Component = { component: string; state: string; reasonCode: number; reason: string };
const printerOf = (body: { components?: Component[] }) =>
  body.components?.find((c) => c.component === 'PRINTER');

describe('a device printer that is off when kasa starts (ADR 0502 as amended)', () => {
  it('kasa starts, warns naming it, reports it not connected; a document is 507; once on, it prints without a restart', async () => {
    const port = await freePort();
    const target = `tcp://127.0.0.1:${port}`;
    const { logger, lines } = recordingLogger();
    h = await startHarness({
      printer: { kind: 'tcp', host: '127.0.0.1', port, profile: DEFAULT_PROFILE },
      logger,
    });

    const warning = lines.find((l) => l.level === 40 && String(l.msg).includes(target));
    expect(warning?.msg).toMatch(/cannot be reached now \(.*ECONNREFUSED.*\)/);

    const status = (await h.get('/api/status/get')).body as { state: string; components: Component[] };
    expect(status.state).toBe('READY');
    expect(printerOf(status)).toMatchObject({ state: 'ERROR', reasonCode: 102 });
    expect(printerOf(status)?.reason).toContain(target);
    expect(printerOf(status)?.reason).toContain('ECONNREFUSED');
    expect((await h.get('/api/printer')).body).toMatchObject({
      resultCode: 0,
      target,
      status: { ready: false, connected: false, faultCode: 102 },
    });

    // As any printer failure: stored and registered, 507 with the printer's code.
    const stored = await h.post('/api/document/store', pd());
    expect(stored.body).toMatchObject({ resultCode: 507, printResultCode: 102 });
    const documentNumber = (stored.body as { document: { documentNumber: string } }).document.documentNumber;
    expect((await h.post('/api/document/get', {})).body).toMatchObject({ document: { documentNumber } });
    expect((await h.post('/api/document/store', pd())).body).toMatchObject({ resultCode: 508 });

    // The printer is switched on, on the same address: the next print connects.
    sim = await EscPosPrinterSim.start({ port });
    expect((await h.post('/api/document/print', {})).body).toEqual({ resultCode: 0 });
    await sim.waitForJobs(1);
    expect(sim.jobs[0]?.text).toContain('POKLADNIČNÝ DOKLAD');
    expect(sim.jobs[0]?.text).toContain(documentNumber);
    expect(printerOf((await h.get('/api/status/get')).body as { components: Component[] })).toMatchObject({
      state: 'OK',
      reasonCode: 0,
    });
    expect((await h.post('/api/document/store', pd())).body).toMatchObject({ resultCode: 0 });
    await sim.waitForJobs(2);
  }, 60_000);

  it('a USB printer switched off (no device node) does not stop the start; status names the path', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kasa-prn-off-'));
    const path = join(dataDir, 'no-such-lp0');
    const { logger, lines } = recordingLogger();
    h = await startHarness({ dataDir, printer: { kind: 'usb', path, profile: DEFAULT_PROFILE }, logger });
    expect(lines.some((l) => l.level === 40 && String(l.msg).includes(`usb://${path}`))).toBe(true);
    const printer = printerOf((await h.get('/api/status/get')).body as { components: Component[] });
    expect(printer).toMatchObject({ state: 'ERROR', reasonCode: 102 });
    expect(printer?.reason).toContain(path);
    expect(printer?.reason).toContain('ENOENT');
  }, 60_000);
});
