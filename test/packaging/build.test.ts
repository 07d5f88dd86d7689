import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ListeningProcess, processTree, startListening } from '../support/listening-process.js';
import { runProcess } from '../support/run-process.js';
import { repoRoot } from '../support/shared-fixtures.js';

/**
 * scripts/build.mjs (ADR 0800). The checkout's own dist/ is built once (`--if-stale`: in CI
 * `npm install`'s prepare step already did, so nothing happens) and shared with `npm start` below
 * and `npm pack` in packed-install.test.ts; the build lock makes them wait for one build rather
 * than race. The staleness tests then work in a copy of the checkout (so they can edit sources)
 * that starts from that dist/, and run tsc only once: a build is the suite's costliest step.
 */
const copy = mkdtempSync(join(tmpdir(), 'kasa-build-'));

async function build(cwd: string, ...args: string[]) {
  const r = await runProcess(process.execPath, [join(cwd, 'scripts', 'build.mjs'), ...args], {
    cwd,
    timeoutMs: 300_000,
  });
  return { code: r.code, out: `${r.stdout}${r.stderr}` };
}

const jsFiles = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'));

beforeAll(async () => {
  const shared = await build(repoRoot, '--if-stale');
  expect(shared.code, shared.out).toBe(0);
  for (const item of ['src', 'assets', 'dist', 'package.json', 'tsconfig.json', 'tsconfig.build.json']) {
    cpSync(join(repoRoot, item), join(copy, item), { recursive: true });
  }
  mkdirSync(join(copy, 'scripts'));
  cpSync(join(repoRoot, 'scripts', 'build.mjs'), join(copy, 'scripts', 'build.mjs'));
  symlinkSync(join(repoRoot, 'node_modules'), join(copy, 'node_modules'));
}, 360_000);
afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe('the build (tsc to dist/)', () => {
  it('compiles src/ without tests and copies the files that are not TypeScript', () => {
    const dist = join(repoRoot, 'dist');
    expect(existsSync(join(dist, 'main.js'))).toBe(true);
    // The admin page (capability 12): index.html and its scripts and style, copied as they are.
    for (const file of ['index.html', 'admin.js', 'admin.css']) {
      expect(readFileSync(join(dist, 'web', 'admin', file), 'utf8'), file).toBe(
        readFileSync(join(repoRoot, 'src', 'web', 'admin', file), 'utf8'),
      );
    }
    const js = jsFiles(dist);
    expect(js.filter((f) => f.endsWith('.test.js') || f.endsWith('.contract.js'))).toEqual([]);
    expect(js.length).toBeGreaterThan(100);
    // Worker threads start compiled modules directly; the tsx boot files stay out of dist/.
    expect(existsSync(join(dist, 'adapters', 'merchant', 'pkcs12-worker.js'))).toBe(true);
    expect(existsSync(join(dist, 'adapters', 'merchant', 'pkcs12-worker-boot.mjs'))).toBe(false);
    expect(existsSync(join(repoRoot, 'dist.lock'))).toBe(false);
  });

  it('--if-stale does nothing while the sources are unchanged, even when only their times change', async () => {
    const stamp = join(copy, 'dist', '.build-stamp.json');
    const before = statSync(stamp).mtimeMs;
    const main = join(copy, 'src', 'main.ts');
    const text = readFileSync(main);
    rmSync(main);
    appendFileSync(main, text); // same content, new file time
    const again = await build(copy, '--if-stale');
    expect(again).toEqual({ code: 0, out: '' });
    expect(statSync(stamp).mtimeMs).toBe(before);
  });

  it('a failed build says so and keeps the previous dist/', async () => {
    // A build input that makes tsc fail at once (no inputs) costs no compile.
    const config = join(copy, 'tsconfig.build.json');
    const good = readFileSync(config, 'utf8');
    writeFileSync(config, good.replace('"include": ["src"]', '"include": ["src/no-such-folder"]'));
    const before = readFileSync(join(copy, 'dist', 'main.js'), 'utf8');
    const failed = await build(copy, '--if-stale');
    writeFileSync(config, good);
    expect(failed.code).toBe(1);
    expect(failed.out).toContain('dist/ is unchanged');
    expect(readFileSync(join(copy, 'dist', 'main.js'), 'utf8')).toBe(before);
    expect(readdirSync(copy).filter((f) => f.startsWith('dist.'))).toEqual([]);
  });

  it('--if-stale rebuilds after an edit, once, however many start at the same time', async () => {
    appendFileSync(join(copy, 'src', 'main.ts'), '\nexport const buildProbe = 42;\n');
    const both = await Promise.all([build(copy, '--if-stale'), build(copy, '--if-stale')]);
    for (const r of both) expect(r.code, r.out).toBe(0);
    // One built; the other waited for the lock and then found dist/ fresh.
    expect(both.filter((r) => r.out.includes('building dist/'))).toHaveLength(1);
    expect(readFileSync(join(copy, 'dist', 'main.js'), 'utf8')).toContain('buildProbe = 42');
    expect(readdirSync(copy).filter((f) => f.startsWith('dist.'))).toEqual([]);
  }, 300_000);
});

describe('npm start', () => {
  let serve: ListeningProcess;
  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kasa-npm-start-'));
    serve = await startListening(
      'npm',
      ['start', '--', '--port', '0', '--data-dir', dataDir, '--log-level', 'warn'],
      {
        cwd: repoRoot,
        timeoutMs: 180_000,
      },
    );
  }, 200_000);
  afterAll(async () => {
    await serve?.stop();
  });

  it('serves from the compiled dist/, not through tsx', async () => {
    const res = await fetch(`${serve.url}/api/version`);
    expect(res.status).toBe(200);
    const tree = processTree(serve.child.pid!).join('\n');
    expect(tree).toMatch(/node dist\/main\.js serve --port 0/);
    expect(tree).not.toContain('tsx');
  });

  it("serves the admin page's own files under /admin/, never kasa's compiled modules beside them (ADR 0427)", async () => {
    // dist/web/admin-page.js (the module that loads the page) was served as a page asset.
    expect(existsSync(join(repoRoot, 'dist', 'web', 'admin-page.js'))).toBe(true);
    for (const path of ['/admin/admin-page.js', '/admin/admin-page.js.map']) {
      const res = await fetch(`${serve.url}${path}`);
      expect(res.status, path).toBe(404);
      expect(((await res.json()) as { resultCode: number }).resultCode, path).toBe(-1);
    }
    const page = await fetch(`${serve.url}/admin/admin.js`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  });
});
