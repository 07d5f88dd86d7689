import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
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

  it('refuses to start (exit 2, one line naming it) when the printer cannot be reached', async () => {
    const s = createServer();
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
    const port = (s.address() as { port: number }).port;
    await new Promise<void>((r) => s.close(() => r()));
    const dataDir = mkdtempSync(join(tmpdir(), 'kasa-e2e-prn-'));
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
        `tcp://127.0.0.1:${port}`,
      ],
      { cwd: repoRoot, encoding: 'utf8' },
    );
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(`--printer tcp://127.0.0.1:${port}`);
  }, 60_000);
});
