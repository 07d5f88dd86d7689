import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServeChild } from '../support/serve-child.js';
import { repoRoot } from '../support/shared-fixtures.js';

/** `kasa printer-sim` as a child process; resolves with the --printer target it prints. */
function startPrinterSim(
  args: string[],
): Promise<{ target: string; child: ChildProcess; stop(): Promise<number | null> }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(repoRoot, 'src', 'main.ts'), 'printer-sim', ...args],
    {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (err += String(d)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`printer-sim did not start\n${out}\n${err}`)), 30_000);
    child.stdout!.on('data', () => {
      const m = /--printer (tcp:\/\/\S+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      resolve({
        target: m[1]!,
        child,
        async stop() {
          if (child.exitCode === null) child.kill('SIGTERM');
          return exited;
        },
      });
    });
    exited.then((code) => reject(new Error(`printer-sim exited with ${code}\n${out}\n${err}`)));
  });
}

async function waitForFile(path: string, timeoutMs = 20_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  while (!existsSync(path)) {
    if (Date.now() > until) throw new Error(`${path} did not appear`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return readFileSync(path, 'utf8');
}

describe('kasa serve --printer tcp://… with kasa printer-sim, as a newcomer tries it', () => {
  it('prints the receipt on the simulator, which writes it as text and PNG', async () => {
    const out = mkdtempSync(join(tmpdir(), 'kasa-prn-out-'));
    const sim = await startPrinterSim(['--port', '0', '--out', out]);
    const dataDir = mkdtempSync(join(tmpdir(), 'kasa-e2e-prn-'));
    const serve = await startServeChild([
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--printer',
      sim.target,
      '--log-level',
      'warn',
    ]);
    try {
      expect(serve.stdout()).toContain(`printer ${sim.target}`);
      const printer = (await (await fetch(`${serve.url}/api/printer`)).json()) as Record<string, unknown>;
      expect(printer).toMatchObject({
        resultCode: 0,
        adapter: 'tcp',
        target: sim.target,
        status: { ready: true },
      });
      const res = await fetch(`${serve.url}/api/document/store`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          type: 'PD',
          amount: 2.5,
          documentEntries: [{ name: 'Káva', price: 2.5, quantity: 1, vatRate: 'VAT_23', itemType: 'SALE' }],
          payments: { Hotovosť: 2.5 },
        }),
      });
      const body = (await res.json()) as { resultCode: number; document: { qrCode: string } };
      expect(body.resultCode).toBe(0);
      const text = await waitForFile(join(out, '000001.txt'));
      expect(text).toContain('POKLADNIČNÝ DOKLAD');
      expect(text).toContain('Káva');
      expect(text).toContain(`[QR: ${body.document.qrCode}]`.slice(0, 20));
      expect(existsSync(join(out, '000001.png'))).toBe(true);
    } finally {
      expect(await serve.stop()).toBe(0);
      await sim.stop();
    }
  }, 90_000);

  it('starts when the printer is still off, reports it, and prints once the simulator listens (ADR 0502 as amended)', async () => {
    const s = createServer();
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
    const port = (s.address() as { port: number }).port;
    await new Promise<void>((r) => s.close(() => r()));
    const target = `tcp://127.0.0.1:${port}`;
    const dataDir = mkdtempSync(join(tmpdir(), 'kasa-e2e-prn-'));
    const serve = await startServeChild([
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--printer',
      target,
      '--log-level',
      'warn',
    ]);
    let sim: Awaited<ReturnType<typeof startPrinterSim>> | undefined;
    try {
      const warning = serve
        .stdout()
        .split('\n')
        .find((l) => l.includes('cannot be reached now'));
      expect(warning).toContain(`--printer ${target}`);
      expect(warning).toContain('ECONNREFUSED');
      const status = (await (await fetch(`${serve.url}/api/status/get`)).json()) as {
        components: Array<{ component: string; state: string; reasonCode: number; reason: string }>;
      };
      const printer = status.components.find((c) => c.component === 'PRINTER');
      expect(printer).toMatchObject({ state: 'ERROR', reasonCode: 102 });
      expect(printer?.reason).toContain('ECONNREFUSED');
      const post = (url: string, body: unknown) =>
        fetch(`${serve.url}${url}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }).then(async (r) => (await r.json()) as Record<string, unknown>);
      const stored = await post('/api/document/store', {
        type: 'PD',
        amount: 2.5,
        documentEntries: [{ name: 'Káva', price: 2.5, quantity: 1, vatRate: 'VAT_23', itemType: 'SALE' }],
        payments: { Hotovosť: 2.5 },
      });
      expect(stored).toMatchObject({ resultCode: 507, printResultCode: 102 });

      const out = mkdtempSync(join(tmpdir(), 'kasa-prn-out-'));
      sim = await startPrinterSim(['--port', String(port), '--out', out]);
      expect(sim.target).toBe(target);
      expect(await post('/api/document/print', {})).toEqual({ resultCode: 0 });
      const text = await waitForFile(join(out, '000001.txt'));
      expect(text).toContain('POKLADNIČNÝ DOKLAD');
      expect(text).toContain('Káva');
    } finally {
      expect(await serve.stop()).toBe(0);
      await sim?.stop();
    }
  }, 90_000);

  it('refuses to start (exit 2, one line naming it) when the target is no printer device', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kasa-e2e-prn-'));
    const file = join(dataDir, 'not-a-printer');
    writeFileSync(file, 'x');
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        'src/main.ts',
        'serve',
        '--port',
        '0',
        '--data-dir',
        dataDir,
        '--printer',
        `usb://${file}`,
      ],
      { cwd: repoRoot, encoding: 'utf8' },
    );
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(`--printer usb://${file}`);
    expect(run.stderr).toContain('is a regular file, not a printer device');
  }, 60_000);
});
