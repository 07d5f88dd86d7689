import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readBuildCommit } from './build-commit.js';

const A = 'a'.repeat(40);
const B = '0123456789abcdef0123456789abcdef01234567';
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kasa-commit-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function write(path: string, text: string): void {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), text);
}

describe('readBuildCommit', () => {
  it('reads a checkout: a branch as a loose ref, as a packed ref, and a detached HEAD', () => {
    write('repo/.git/HEAD', 'ref: refs/heads/main\n');
    write('repo/.git/refs/heads/main', `${A}\n`);
    expect(readBuildCommit(join(dir, 'repo'))).toBe(A.slice(0, 12));
    write('repo/.git/HEAD', 'ref: refs/heads/old\n');
    write('repo/.git/packed-refs', `# pack-refs with: peeled\n${B} refs/heads/old\n`);
    expect(readBuildCommit(join(dir, 'repo'))).toBe('0123456789ab');
    write('repo/.git/HEAD', `${B}\n`);
    expect(readBuildCommit(join(dir, 'repo'))).toBe('0123456789ab');
  });

  it('reads a git worktree: .git is a file, the branch lives in the main repository', () => {
    write('main/.git/refs/heads/feature', `${B}\n`);
    write('main/.git/worktrees/wt/HEAD', 'ref: refs/heads/feature\n');
    write('main/.git/worktrees/wt/commondir', '../..\n');
    write('wt/.git', `gitdir: ${join(dir, 'main/.git/worktrees/wt')}\n`);
    expect(readBuildCommit(join(dir, 'wt'))).toBe('0123456789ab');
  });

  it('knows none for an installed package, a missing ref or a HEAD that is no hash', () => {
    expect(readBuildCommit(join(dir, 'nothing'))).toBeUndefined();
    write('repo/.git/HEAD', 'ref: refs/heads/unborn\n');
    expect(readBuildCommit(join(dir, 'repo'))).toBeUndefined();
    write('repo/.git/HEAD', 'not a hash\n');
    expect(readBuildCommit(join(dir, 'repo'))).toBeUndefined();
  });
});
