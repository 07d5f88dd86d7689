import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import type { SfsSimulator } from '../simulators/sfs/sfs-simulator.js';
import { type CliIo, runCli } from './program.js';
import { IDENTITIES_FILE, registerSfsSimCommand } from './sfs-sim-command.js';

function io(): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    env: {},
    cwd: mkdtempSync(join(tmpdir(), 'kasa-sim-cwd-')),
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    out,
    err,
  };
}

describe('kasa sfs-sim', () => {
  it('starts the simulator, prints the URL and the signing certificate path, runs until stopped', async () => {
    const t = io();
    let simulator: SfsSimulator | undefined;
    let stop: (() => void) | undefined;
    const program = new Command('kasa').exitOverride();
    registerSfsSimCommand(program, t, {
      onStarted: (s, st) => {
        simulator = s;
        stop = st;
      },
    });
    const running = program.parseAsync(['sfs-sim', '--port', '0', '--ca-dir', 'ca'], { from: 'user' });
    for (let i = 0; i < 100 && !simulator; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    const url = simulator!.url;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mdu\/soap\/services\/v2$/);
    const lines = t.out.join('').split('\n');
    expect(lines[0]).toBe(`SFS simulator listening on ${url}`);
    expect(lines[1]).toBe(`response signing certificate: ${join(t.cwd, 'ca', 'sfs-signing-cert.pem')}`);
    expect((await fetch(url)).status).toBe(405);
    stop!();
    await running;
    await expect(fetch(url)).rejects.toThrow();
  });

  it('keeps the identities it learns (check −905) in <ca-dir>/sfs-sim-identities.json across restarts', async () => {
    const t = io();
    const program = new Command('kasa').exitOverride();
    let simulator: SfsSimulator | undefined;
    let stop: (() => void) | undefined;
    registerSfsSimCommand(program, t, {
      onStarted: (s, st) => {
        simulator = s;
        stop = st;
      },
    });
    const running = program.parseAsync(['sfs-sim', '--port', '0', '--ca-dir', 'ca'], { from: 'user' });
    for (let i = 0; i < 100 && !simulator; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    const identity = { cashRegisterCode: '88812345678900001', ico: '10000003' };
    const res = await fetch(`${simulator!.baseUrl}/__sim/merchant`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(identity),
    });
    expect(res.status).toBe(200);
    stop!();
    await running;
    const file = join(t.cwd, 'ca', IDENTITIES_FILE);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ identities: [identity] });
  });

  it('exits 2 naming --port when it is not a port', async () => {
    const t = io();
    expect(await runCli(['sfs-sim', '--port', 'x', '--ca-dir', 'ca'], t, '1.0.0')).toBe(2);
    expect(t.err.join('')).toContain('--port');
  });

  it('exits 2 naming --ca-dir when it is missing', async () => {
    const t = io();
    expect(await runCli(['sfs-sim', '--port', '0'], t, '1.0.0')).toBe(2);
    expect(t.err.join('')).toContain('--ca-dir');
  });
});
