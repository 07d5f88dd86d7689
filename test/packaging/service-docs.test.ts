import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/shared-fixtures.js';

/**
 * The service docs must work as written against packaging/kasa.service: its commands run as the
 * `kasa` user (ADR 0803), who can write only its state directories and folders given to it.
 */
const read = (p: string): string => readFileSync(join(repoRoot, p), 'utf8');
const install = read('docs/install.md');
const backup = read('docs/backup.md');
const unit = read('packaging/kasa.service');

/** Shell commands in the docs that act on the service's data dir. */
function serviceCommands(text: string, verb: 'backup' | 'restore'): string[] {
  // A command may continue on the next line (`\`); join those first.
  const joined = text.replace(/\\\n\s*/g, ' ');
  return joined
    .split('\n')
    .flatMap((line) => line.match(new RegExp(`(?:sudo -u kasa )?kasa ${verb} [^\`]*`, 'g')) ?? [])
    .filter((cmd) => cmd.includes('/var/lib/kasa'));
}

describe('service docs agree with the unit', () => {
  it('backups of the service run as kasa into a file name form kasa writes, not into /root or a home', () => {
    const cmds = [...serviceCommands(install, 'backup'), ...serviceCommands(backup, 'backup')];
    expect(cmds.length).toBeGreaterThan(0);
    for (const cmd of cmds) {
      expect(cmd, cmd).toMatch(/^sudo -u kasa kasa backup /);
      const to = /--to (.+?)(?= --|$)/.exec(cmd.trim())?.[1] ?? '';
      expect(to, cmd).not.toMatch(/^(\/root|~|\/home)\b/);
      expect(to, cmd).toMatch(/\.tar\.gz$/);
    }
  });

  it('restores into the service data dir run as kasa, so the service can read what they write', () => {
    const cmds = [...serviceCommands(install, 'restore'), ...serviceCommands(backup, 'restore')];
    expect(cmds.length).toBeGreaterThan(0);
    for (const cmd of cmds) expect(cmd, cmd).toMatch(/^sudo -u kasa kasa restore /);
  });

  it("install.md names every group of the unit's SupplementaryGroups=", () => {
    const groups = /^SupplementaryGroups=(.+)$/m.exec(unit)?.[1]?.split(/\s+/) ?? [];
    expect(groups.length).toBeGreaterThan(0);
    const line = /runs `kasa serve` as the user `kasa`, in the groups ([^;]+);/.exec(
      install.replace(/\n\s*/g, ' '),
    );
    expect(line).not.toBeNull();
    for (const g of ['kasa', ...groups]) expect(line![1], g).toContain(`\`${g}\``);
  });

  it('install.md lists the Raspberry Pi UART the unit allows', () => {
    expect(unit).toMatch(/^DeviceAllow=char-ttyAMA rw$/m);
    expect(install).toContain('/dev/ttyAMA');
    expect(install).toContain('DeviceAllow=char-ttyAMA rw');
  });
});
