import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ChduLiteEmulator } from '../../src/simulators/chdu/chdu-lite-emulator.js';
import { type Harness, pd, startHarness } from '../support/kasa-harness.js';

/** Capability 16 point 2 / ADR 0421: the SwId in force — configured, or derived from the actual CHDÚ. */
// Lower case, as the official SFS samples carry theirs: sent exactly as given.
const CERTIFIED = '0123456789abcdef0123456789abcdef01234567';
const packageVersion = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
const sha1 = (text: string) => createHash('sha1').update(text, 'utf8').digest('hex').toUpperCase();

let open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const x of open.reverse()) await x.close();
  open = [];
});
async function harness(options: Parameters<typeof startHarness>[0] = {}): Promise<Harness> {
  const h = await startHarness(options);
  open.push(h);
  return h;
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

async function until(condition: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('SwId', () => {
  it('--sw-id: shown in /api/version and /api/status/get and sent to the SFS', async () => {
    const h = await harness({ swId: CERTIFIED });
    const version = await h.get('/api/version');
    expect(version.body).toMatchObject({ swId: CERTIFIED, swIdOrigin: 'configured' });
    expect(version.body.swIdDerivedFrom).toBeUndefined();
    const status = await h.get('/api/status/get');
    expect(status.body).toMatchObject({ swId: CERTIFIED, swIdOrigin: 'configured' });

    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(0);
    expect(h.sim.history().at(-1)).toMatchObject({ outcome: 'accepted', swId: CERTIFIED });
  });

  it('default with the image CHDÚ: derived from its model and the version the image reports', async () => {
    const h = await harness();
    const firmware = (await h.get('/api/chduinfo')).body.firmwareVersion as string;
    expect(firmware).toBeTruthy();
    const derivedFrom = `kasa|kasa|kasa image file|${packageVersion}|${firmware}`;
    const version = (await h.get('/api/version')).body;
    expect(version).toMatchObject({ swIdOrigin: 'derived', swIdDerivedFrom: derivedFrom });
    expect(version.swId).toBe(sha1(derivedFrom));
    // not the old hard-coded CHDÚ version
    expect(version.swId).not.toBe(sha1(`kasa|kasa|kasa image CHDU|${packageVersion}|1.3`));
    expect((await h.get('/api/status/get')).body.swId).toBe(version.swId);

    expect((await h.post('/api/document/store', pd())).body.resultCode).toBe(0);
    expect(h.sim.history().at(-1)!.swId).toBe(version.swId);
  });

  it('default with a CHDU Lite: pending until the device answers, then derived from what it reports', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kasa-swid-'));
    const port = await freePort();
    const h = await harness({ chdu: { kind: 'chdu-lite-tcp', host: '127.0.0.1', port } });
    const before = (await h.get('/api/version')).body;
    expect(before.swIdOrigin).toBe('pending');
    expect(before.swId).toBeUndefined();

    const emulator = await ChduLiteEmulator.start({ imagePath: join(dir, 'device.img'), port });
    open.push(emulator);
    // A refused fiscal request starts a re-check (ADR 0110), which reads the device's version.
    await until(async () => {
      await h.post('/api/document/get', {});
      return (await h.get('/api/version')).body.swIdOrigin === 'derived';
    });
    const reported = (await h.get('/api/chduinfo')).body.firmwareVersion as string;
    const derivedFrom = `kasa|kasa|CHDU Lite|${packageVersion}|${reported}`;
    const after = (await h.get('/api/version')).body;
    expect(after.swIdDerivedFrom).toBe(derivedFrom);
    expect(after.swId).toBe(sha1(derivedFrom));
  });
});
