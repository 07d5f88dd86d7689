import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import type { NopSimulator } from '../simulators/nop/nop-simulator.js';
import { registerNopSimCommand } from './nop-sim-command.js';
import { type CliIo, runCli } from './program.js';

function io(): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    env: {},
    cwd: mkdtempSync(join(tmpdir(), 'kasa-nopsim-cwd-')),
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    out,
    err,
  };
}

describe('kasa nop-sim', () => {
  it('starts the three faces, prints the kasa serve flags, answers 401 without a certificate, stops', async () => {
    const t = io();
    let simulator: NopSimulator | undefined;
    let stop: (() => void) | undefined;
    const program = new Command('kasa').exitOverride();
    registerNopSimCommand(program, t, {
      onStarted: (s, st) => {
        simulator = s;
        stop = st;
      },
    });
    const running = program.parseAsync(['nop-sim', '--ca-dir', 'ca'], { from: 'user' });
    for (let i = 0; i < 200 && !simulator; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    const out = t.out.join('');
    expect(out).toContain(`--nop-url ${simulator!.erpUrl} --nop-mqtt-url ${simulator!.mqttUrl}`);
    expect(out).toContain(`--nop-trust ${join(t.cwd, 'ca', 'ca-cert.pem')}`);
    const control = await fetch(`${simulator!.controlUrl}/__sim/`);
    expect(control.status).toBe(200);
    // ADR 0428: a web page may not pay a demo QR payment or read the simulator's state.
    const fromPage = await fetch(`${simulator!.controlUrl}/__sim/pay`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', origin: 'http://evil.example' },
      body: '{}',
    });
    expect(fromPage.status).toBe(403);
    const rebound = await fetch(`${simulator!.controlUrl}/__sim/`, {
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(rebound.status).toBe(403);
    const history = await fetch(`${simulator!.controlUrl}/api/v1/getTransactionHistory/QR-${'0'.repeat(32)}`);
    expect(history.status).toBe(404);
    stop!();
    await running;
    await expect(fetch(`${simulator!.controlUrl}/__sim/`)).rejects.toThrow();
  });

  it('exits 2 naming --ca-dir when it is missing', async () => {
    const t = io();
    expect(await runCli(['nop-sim'], t, '1.0.0')).toBe(2);
    expect(t.err.join('')).toContain('--ca-dir');
  });
});
