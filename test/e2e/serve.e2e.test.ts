import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServeChild } from '../support/serve-child.js';
import { repoRoot } from '../support/shared-fixtures.js';

const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };

describe('kasa serve as a child process', () => {
  it('starts on port 0, prints its URL line and answers /api/version', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kasa-e2e-'));
    const serve = await startServeChild(['--port', '0', '--data-dir', dataDir, '--log-level', 'warn']);
    try {
      // The first line says what runs (docs/install.md, Upgrades): version, and the commit of a
      // checkout or worktree (read from git's files, so git itself is only the test's witness).
      const git = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' });
      const head = git.status === 0 ? git.stdout.trim().slice(0, 12) : undefined;
      const commit = head ? ` \\(commit ${head}\\)` : '(?: \\(commit [0-9a-f]{12}\\))?';
      const version = pkg.version.replaceAll('.', '\\.');
      expect(serve.stdout().split('\n')[0]).toMatch(
        new RegExp(`^kasa ${version}${commit}, data dir ${dataDir} \\(from --data-dir\\)$`),
      );
      expect(serve.stdout()).toMatch(
        /admin http:\/\/127\.0\.0\.1:\d+\/admin\/ +API docs http:\/\/127\.0\.0\.1:\d+\/docs +CHDU \S+ +SFS .+ +printer virtual/,
      );
      const res = await fetch(`${serve.url}/api/version`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const body = (await res.json()) as Record<string, unknown>;
      expect(body).toMatchObject({ resultCode: 0, product: 'kasa', apiVersion: '1.7' });
      expect(body.swId).toMatch(/^[0-9A-F]{40}$/);
      if (head) expect(body.buildCommit).toBe(head);
      for (const page of ['/', '/admin/']) {
        const admin = await fetch(`${serve.url}${page}`);
        expect(admin.status).toBe(200);
        expect(await admin.text()).toContain('/admin/admin.js');
      }
      const status = await fetch(`${serve.url}/admin/view-status.js`);
      expect(status.headers.get('content-type')).toContain('text/javascript');
      expect(await status.text()).toContain('/api/status/get');
      const docs = await fetch(`${serve.url}/docs`, { redirect: 'follow' });
      expect(docs.status).toBe(200);
    } finally {
      expect(await serve.stop()).toBe(0);
    }
  });

  it('warns loudly when bound to a non-loopback address without a token', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kasa-e2e-'));
    const serve = await startServeChild([
      '--host',
      '0.0.0.0',
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--log-level',
      'warn',
    ]);
    try {
      expect(serve.stderr()).toContain('WITHOUT a token');
    } finally {
      await serve.stop();
    }
    const withToken = await startServeChild([
      '--host',
      '0.0.0.0',
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--token',
      'a-long-token',
      '--log-level',
      'warn',
    ]);
    try {
      expect(withToken.stderr()).not.toContain('WITHOUT a token');
    } finally {
      await withToken.stop();
    }
  });

  it('exits with code 2 and one line naming a bad flag', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve', '--port', '99999'], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('--port');
  });
});
