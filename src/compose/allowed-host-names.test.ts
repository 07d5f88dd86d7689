import { describe, expect, it } from 'vitest';
import { allowedHostNames } from './allowed-host-names.js';

function recordingLogger(): { warn: (msg: string) => void; warnings: string[] } {
  const warnings: string[] = [];
  return { warn: (msg: string) => void warnings.push(msg), warnings };
}

describe('allowedHostNames', () => {
  it('a specific host is the only extra name; the interfaces are not even listed', () => {
    const log = recordingLogger();
    const names = allowedHostNames('192.0.2.7', log, {
      hostname: () => 'kasa-box',
      networkInterfaces: () => {
        throw new Error('must not be called');
      },
    });
    expect(names).toEqual(['192.0.2.7']);
    expect(log.warnings).toEqual([]);
  });

  it('a wildcard host adds the machine name and every interface address', () => {
    const log = recordingLogger();
    const names = allowedHostNames('0.0.0.0', log, {
      hostname: () => 'kasa-box',
      networkInterfaces: () => ({ lo: [{ address: '127.0.0.1' }], eth0: [{ address: '192.0.2.7' }] }),
    });
    expect(names).toEqual(['0.0.0.0', 'kasa-box', '127.0.0.1', '192.0.2.7']);
    expect(log.warnings).toEqual([]);
  });

  it('a sandbox that forbids AF_NETLINK (networkInterfaces throws) falls back with a warning naming the cause', () => {
    // What Node raises under RestrictAddressFamilies= without AF_NETLINK (ADR 0803).
    const log = recordingLogger();
    const names = allowedHostNames('0.0.0.0', log, {
      hostname: () => 'kasa-box',
      networkInterfaces: () => {
        throw new Error('A system error occurred: uv_interface_addresses returned Unknown system error 97');
      },
    });
    expect(names).toEqual(['0.0.0.0', 'kasa-box']);
    expect(log.warnings).toHaveLength(1);
    expect(log.warnings[0]).toContain('uv_interface_addresses returned Unknown system error 97');
    expect(log.warnings[0]).toContain('AF_NETLINK');
  });
});
