import { describe, expect, it } from 'vitest';
import { type CliIo, runCli } from './program.js';

function io(env: Record<string, string> = {}): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { env, cwd: '/tmp', stdout: (t) => out.push(t), stderr: (t) => err.push(t), out, err };
}

describe('kasa CLI', () => {
  it('exits 2 with one line naming an unknown flag', async () => {
    const t = io();
    expect(await runCli(['serve', '--bogus'], t, '1.0.0')).toBe(2);
    expect(t.err.join('')).toContain('--bogus');
    expect(t.err.join('').trim().split('\n')).toHaveLength(1);
  });

  it.each([
    [['serve', '--port', 'abc'], '--port'],
    [['serve', '--sfs-timeout-ms', '0'], '--sfs-timeout-ms'],
    [['serve', '--printer', 'lpt1'], '--printer'],
    [['serve', '--chdu', 'floppy:/a'], '--chdu'],
    [['serve', '--sfs-url', 'ftp://x'], '--sfs-url'],
    [['serve', '--log-level', 'loud'], '--log-level'],
    [['serve', '--token', 'short'], '--token'],
    [['serve', '--sw-id', 'ABC'], '--sw-id'],
    [['serve', '--sw-id', 'G'.repeat(40)], '--sw-id'],
  ])('exits 2 for a bad value: %j', async (argv, name) => {
    const t = io();
    expect(await runCli(argv, t, '1.0.0')).toBe(2);
    expect(t.err.join('')).toContain(name);
  });

  it('exits 2 naming a bad environment variable', async () => {
    const t = io({ KASA_SFS_TIMEOUT_MS: 'soon' });
    expect(await runCli(['serve'], t, '1.0.0')).toBe(2);
    expect(t.err.join('')).toContain('KASA_SFS_TIMEOUT_MS');
  });

  it('exits 2 naming KASA_SW_ID when it is not 40 hex digits', async () => {
    const t = io({ KASA_SW_ID: '1234' });
    expect(await runCli(['serve'], t, '1.0.0')).toBe(2);
    expect(t.err.join('')).toContain('KASA_SW_ID');
  });

  it('exits 2 for a printer target whose adapter does not exist (ADR 0502)', async () => {
    const t = io();
    expect(
      await runCli(
        ['serve', '--port', '0', '--printer', 'tcp://127.0.0.1:9100', '--data-dir', '/tmp/kasa-cli-t'],
        t,
        '1.0.0',
      ),
    ).toBe(2);
    expect(t.err.join('')).toContain('--printer');
  });

  it('prints help with every serve flag and exits 0', async () => {
    const t = io();
    expect(await runCli(['serve', '--help'], t, '1.0.0')).toBe(0);
    const help = t.out.join('');
    for (const flag of [
      '--host',
      '--port',
      '--data-dir',
      '--sfs-url',
      '--sfs-trust',
      '--sfs-timeout-ms',
      '--printer',
      '--chdu',
      '--no-demo',
      '--sfs-sim',
      '--token',
      '--log-level',
      '--sw-id',
    ]) {
      expect(help).toContain(flag);
    }
  });

  it('serve --help names every printer target the parser accepts, usb:// included', async () => {
    const t = io();
    expect(await runCli(['serve', '--help'], t, '1.0.0')).toBe(0);
    const help = t.out.join('').replace(/\s+/g, ' ');
    for (const target of ['virtual', 'none', 'tcp://', 'serial://', 'usb://', 'chdu']) {
      expect(help).toContain(target);
    }
  });
});
