import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { repoRoot } from '../support/shared-fixtures.js';

it('kasa sfs-sim keeps running while it is "offline" and listens again after the given time', async () => {
  const caDir = mkdtempSync(join(tmpdir(), 'kasa-sfs-sim-'));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(repoRoot, 'src/main.ts'), 'sfs-sim', '--port', '0', '--ca-dir', caDir],
    {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout.on('data', (d) => (out += String(d)));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  try {
    const base = await new Promise<string>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no start line: ${out}`)), 20_000);
      child.stdout.on('data', () => {
        const m = /listening on (http:\/\/[^/\s]+)/.exec(out);
        if (m) {
          clearTimeout(t);
          resolve(m[1]!);
        }
      });
    });
    const off = await fetch(`${base}/__sim/offline`, { method: 'POST', body: JSON.stringify({ ms: 700 }) });
    expect(off.status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    await expect(fetch(`${base}/__sim/received`)).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 1000));
    expect(child.exitCode).toBeNull();
    const back = await fetch(`${base}/__sim/received`);
    expect(back.status).toBe(200);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
});
