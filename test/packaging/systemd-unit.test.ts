import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/shared-fixtures.js';

const unitPath = join(repoRoot, 'packaging', 'kasa.service');
const unit = readFileSync(unitPath, 'utf8');

/** `Key=value` lines of one section, in order (repeated keys kept). */
function section(name: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  let current = '';
  for (const raw of unit.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) {
      current = header[1]!;
      continue;
    }
    if (current !== name) continue;
    const eq = line.indexOf('=');
    out.push([line.slice(0, eq), line.slice(eq + 1)]);
  }
  return out;
}
const service = section('Service');
const values = (key: string): string[] => service.filter(([k]) => k === key).map(([, v]) => v);

const hasAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;

/** The unit with ExecStart pointing at this checkout's bin/kasa.js, which verify can find. */
function verifiableCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kasa-unit-'));
  const path = join(dir, 'kasa.service');
  writeFileSync(path, unit.replace(/^ExecStart=kasa /m, `ExecStart=${join(repoRoot, 'bin', 'kasa.js')} `));
  return path;
}

describe('packaging/kasa.service', () => {
  it('runs `kasa serve` as its own user with its state in /var/lib/kasa', () => {
    expect(values('ExecStart')).toEqual(['kasa serve']);
    expect(values('User')).toEqual(['kasa']);
    expect(values('Group')).toEqual(['kasa']);
    expect(values('StateDirectory')).toEqual(['kasa kasa-marks']);
    expect(values('Environment')).toContain('KASA_DATA_DIR=/var/lib/kasa');
    expect(values('SupplementaryGroups')).toEqual(['dialout lp']);
  });

  it('keeps the rollback marks in a state directory of their own, outside the data dir (ADR 0118)', () => {
    // The user's home is the data dir: without KASA_MARK_DIR the marks would fall inside it and a
    // restored backup could bring an older mark back.
    const env = new Map(values('Environment').map((v) => v.split('=', 2) as [string, string]));
    const marks = env.get('KASA_MARK_DIR');
    const data = env.get('KASA_DATA_DIR');
    expect(marks).toBe('/var/lib/kasa-marks');
    expect(`${marks}/`.startsWith(`${data}/`)).toBe(false);
    // systemd creates it, owned by the service user (ProtectSystem=strict leaves nothing else writable).
    const dirs = values('StateDirectory').flatMap((v) => v.split(/\s+/).map((d) => `/var/lib/${d}`));
    expect(dirs).toEqual([data, marks]);
  });

  it('restarts on failure but not after a usage error, and logs to the journal', () => {
    expect(values('Restart')).toEqual(['on-failure']);
    expect(values('RestartPreventExitStatus')).toEqual(['2']);
    // A start that keeps failing (a CHDU Lite that never answers: exit 1) is not retried for ever.
    const unit = new Map(section('Unit'));
    expect(unit.get('StartLimitIntervalSec')).toBe('300');
    expect(unit.get('StartLimitBurst')).toBe('60');
    expect(values('StandardOutput')).toEqual(['journal']);
    expect(values('StandardError')).toEqual(['journal']);
  });

  it('is hardened, without options that break Node (MemoryDenyWriteExecute) or serial devices (PrivateDevices)', () => {
    for (const [key, value] of [
      ['NoNewPrivileges', 'yes'],
      ['ProtectSystem', 'strict'],
      ['ProtectHome', 'yes'],
      ['PrivateTmp', 'yes'],
      ['CapabilityBoundingSet', ''],
      ['DevicePolicy', 'closed'],
      ['SystemCallFilter', '@system-service'],
    ] as const) {
      expect(values(key), key).toEqual([value]);
    }
    expect(values('MemoryDenyWriteExecute')).toEqual([]);
    expect(values('PrivateDevices')).toEqual([]);
    expect(values('DeviceAllow')).toEqual([
      'char-ttyACM rw',
      'char-ttyUSB rw',
      'char-ttyS rw',
      'char-ttyAMA rw',
      'char-usb rw',
    ]);
  });

  it('lets a Raspberry Pi UART through DevicePolicy=closed (/dev/ttyAMA*, /dev/serial0)', () => {
    expect(values('DevicePolicy')).toEqual(['closed']);
    expect(values('DeviceAllow')).toContain('char-ttyAMA rw');
  });

  it('allows AF_NETLINK, which os.networkInterfaces() needs when kasa is bound to 0.0.0.0', () => {
    // Without it Node throws "uv_interface_addresses returned Unknown system error 97" (ADR 0803).
    const families = values('RestrictAddressFamilies').flatMap((v) => v.split(/\s+/));
    expect(families).toEqual(expect.arrayContaining(['AF_UNIX', 'AF_INET', 'AF_INET6', 'AF_NETLINK']));
    expect(values('RestrictAddressFamilies')).toHaveLength(1);
  });

  it.skipIf(!hasAnalyze)(
    'passes `systemd-analyze verify` without a single warning (skipped: no systemd-analyze)',
    () => {
      const r = spawnSync('systemd-analyze', ['verify', verifiableCopy()], { encoding: 'utf8' });
      expect(`${r.stdout}${r.stderr}`.trim()).toBe('');
      expect(r.status).toBe(0);
    },
  );

  it.skipIf(!hasAnalyze)(
    'rates "OK" or better in `systemd-analyze security` (skipped: no systemd-analyze)',
    (ctx) => {
      const r = spawnSync('systemd-analyze', ['security', '--offline=yes', verifiableCopy()], {
        encoding: 'utf8',
      });
      // systemd before 252 has no --offline: that part of the check is then skipped by name.
      if (/unrecognized option|unknown option/i.test(r.stderr)) ctx.skip();
      const level = /Overall exposure level for kasa\.service: ([\d.]+)/.exec(r.stdout);
      expect(level, r.stdout + r.stderr).not.toBeNull();
      expect(Number(level![1])).toBeLessThanOrEqual(3.0);
    },
  );
});
