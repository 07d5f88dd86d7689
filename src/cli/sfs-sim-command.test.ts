import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import type { SfsSimulator } from '../simulators/sfs/sfs-simulator.js';
import { registerSfsSimCommand } from './sfs-sim-command.js';

describe('kasa sfs-sim', () => {
  it('starts the simulator, prints the URL and the signing certificate path', async () => {
    const caDir = mkdtempSync(join(tmpdir(), 'kasa-sim-ca-'));
    const lines: string[] = [];
    let simulator: SfsSimulator | undefined;
    const program = new Command('kasa').exitOverride();
    registerSfsSimCommand(program, {
      out: (l) => lines.push(l),
      onStarted: (s) => (simulator = s),
      handleSignals: false,
    });
    await program.parseAsync(['sfs-sim', '--port', '0', '--ca-dir', caDir], { from: 'user' });
    try {
      expect(simulator).toBeDefined();
      const url = simulator!.url;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mdu\/soap\/services\/v2$/);
      expect(lines[0]).toBe(`SFS simulator listening on ${url}`);
      expect(lines[1]).toBe(`response signing certificate: ${join(caDir, 'sfs-signing-cert.pem')}`);
      expect((await fetch(url)).status).toBe(405);
    } finally {
      await simulator?.close();
    }
  });

  it('refuses a port that is not a port', async () => {
    const program = new Command('kasa').exitOverride().configureOutput({ writeErr: () => {} });
    registerSfsSimCommand(program, { handleSignals: false }).exitOverride();
    await expect(
      program.parseAsync(['sfs-sim', '--port', 'x', '--ca-dir', '/tmp/x'], { from: 'user' }),
    ).rejects.toThrow();
  });
});
