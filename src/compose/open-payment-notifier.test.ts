import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { defaultServeConfig } from '../config/serve-config.js';
import { UsageError } from '../config/usage-error.js';
import { systemClock } from '../core/ports/clock.js';
import { openPaymentNotifier } from './open-payment-notifier.js';

describe('openPaymentNotifier --nop-trust (ADR 0426)', () => {
  it('refuses a FIFO and /dev/zero at once, saying what they are', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kasa-nop-trust-'));
    const fifo = join(dir, 'ca.pem');
    execFileSync('mkfifo', [fifo]);
    // Read as a file, the FIFO would hold the process until a writer comes: this one comes after
    // 3 s, so a regression fails on time instead of hanging the run.
    const writer = spawn('sh', ['-c', 'sleep 3; echo x > "$0"', fifo], { stdio: 'ignore' });
    onTestFinished(() => {
      if (writer.exitCode === null) writer.kill('SIGKILL');
    });
    for (const [path, kind] of [
      [fifo, 'a FIFO (named pipe)'],
      ['/dev/zero', 'a memory device'],
    ] as const) {
      const config = defaultServeConfig(dir, {
        nopUrl: 'https://127.0.0.1:1/erp',
        nopMqttUrl: 'mqtts://127.0.0.1:1',
        nopTrust: path,
      });
      const started = Date.now();
      const e = await openPaymentNotifier(config, false, systemClock).catch((x: unknown) => x);
      expect(Date.now() - started, path).toBeLessThan(1000);
      expect(e, path).toBeInstanceOf(UsageError);
      expect((e as Error).message).toBe(`--nop-trust ${path} is ${kind}, not a PEM file`);
    }
  });
});
