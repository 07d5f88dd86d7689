import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/shared-fixtures.js';

/**
 * `kasa serve` on a data dir its user cannot write: one line naming the path and the way out, and
 * exit 2, which the systemd unit does not restart (RestartPreventExitStatus=2, docs/install.md).
 * Permissions mean nothing to root, so as root the service runs as `nobody` through setpriv(1).
 */
const asRoot = process.getuid?.() === 0;
const setpriv = asRoot && spawnSync('setpriv', ['--version']).status === 0;
const NOBODY = 65534;
const skip = asRoot && !setpriv;
if (skip)
  console.log('serve-data-dir-access: skipped — running as root without setpriv(1) to drop to nobody');

const work = mkdtempSync(join(tmpdir(), 'kasa-access-e2e-'));
chmodSync(work, 0o755); // nobody must reach the data dirs below
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Makes `path` belong to the user the service runs as (nobody when the test runs as root). */
function own(path: string): void {
  if (asRoot) chownSync(path, NOBODY, NOBODY);
}

function serve(dataDir: string) {
  const node = [process.execPath, '--import', 'tsx', 'src/main.ts', 'serve', '--data-dir', dataDir];
  const argv = setpriv
    ? ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', ...node]
    : node;
  const run = spawnSync(argv[0]!, [...argv.slice(1), '--port', '0', '--mark-dir', join(work, 'marks')], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 90_000,
    env: { ...process.env, HOME: work },
  });
  return { code: run.status, stderr: run.stderr };
}

describe.skipIf(skip)('kasa serve on a data dir this user cannot write', () => {
  it('a read-only data dir: exit 2, one line naming it (not "unable to open database file")', () => {
    const data = join(work, 'read-only');
    mkdirSync(data);
    writeFileSync(join(data, 'chdu.img'), '');
    own(data);
    own(join(data, 'chdu.img'));
    chmodSync(data, 0o555);
    const r = serve(data);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(
      new RegExp(
        `^kasa: the data dir ${data} cannot be read and written by the user \\S+ \\(uid \\d+; EACCES\\): .*chown -R`,
      ),
    );
  }, 120_000);

  it("another owner's file inside (a `sudo kasa …` left it to root): exit 2, naming that file", () => {
    const data = join(work, 'foreign-file');
    mkdirSync(join(data, 'demo-ca'), { recursive: true, mode: 0o700 });
    const key = join(data, 'demo-ca', 'ca-key.pem');
    writeFileSync(key, 'key', { mode: 0o600 });
    own(data);
    own(join(data, 'demo-ca'));
    if (!asRoot) chmodSync(key, 0o000); // a user cannot give a file away; no permission is the same to it
    const r = serve(data);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(
      new RegExp(`^kasa: ${key} in the data dir ${data} cannot be read and written by`),
    );
  }, 120_000);
});

it("SQLite's bare 'unable to open database file' met later in the start: exit 2, naming the data dir", () => {
  const data = join(work, 'index-is-a-folder');
  mkdirSync(join(data, 'index.sqlite'), { recursive: true }); // passes the check, fails SQLite
  const node = [process.execPath, '--import', 'tsx', 'src/main.ts', 'serve', '--data-dir', data];
  const run = spawnSync(node[0]!, [...node.slice(1), '--port', '0', '--mark-dir', join(work, 'marks')], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 90_000,
  });
  expect(run.status).toBe(2);
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
  expect(run.stderr).toContain(
    `(SQLITE_CANTOPEN: unable to open database file): check that the data dir ${data} and everything in it`,
  );
}, 120_000);
