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
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ListeningProcess, processTree, startListening } from '../support/listening-process.js';
import { runProcess } from '../support/run-process.js';
import { repoRoot } from '../support/shared-fixtures.js';

/**
 * scripts/build.mjs (ADR 0800), run in a copy of the checkout so the test can edit sources:
 * `--if-stale` builds once, skips while nothing changed, rebuilds after an edit, and a failed build
 * leaves the previous dist/ in place.
 */
const copy = mkdtempSync(join(tmpdir(), 'kasa-build-'));

async function build(...args: string[]) {
  const r = await runProcess(process.execPath, [join(copy, 'scripts', 'build.mjs'), ...args], {
    cwd: copy,
    timeoutMs: 180_000,
  });
  return { code: r.code, out: `${r.stdout}${r.stderr}` };
}

const jsFiles = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'));

beforeAll(() => {
  for (const item of ['src', 'assets', 'package.json', 'tsconfig.json', 'tsconfig.build.json']) {
    cpSync(join(repoRoot, item), join(copy, item), { recursive: true });
  }
  mkdirSync(join(copy, 'scripts'));
  cpSync(join(repoRoot, 'scripts', 'build.mjs'), join(copy, 'scripts', 'build.mjs'));
  symlinkSync(join(repoRoot, 'node_modules'), join(copy, 'node_modules'));
});
afterAll(() => rmSync(copy, { recursive: true, force: true }));

describe('the build (tsc to dist/)', () => {
  it('compiles src/ without tests and copies the files that are not TypeScript', async () => {
    const first = await build('--if-stale');
    expect(first.code, first.out).toBe(0);
    expect(first.out).toContain('building dist/');
    const dist = join(copy, 'dist');
    expect(existsSync(join(dist, 'main.js'))).toBe(true);
    expect(readFileSync(join(dist, 'web', 'admin.html'), 'utf8')).toBe(
      readFileSync(join(copy, 'src', 'web', 'admin.html'), 'utf8'),
    );
    const js = jsFiles(dist);
    expect(js.filter((f) => f.endsWith('.test.js') || f.endsWith('.contract.js'))).toEqual([]);
    expect(js.length).toBeGreaterThan(100);
    // Worker threads start compiled modules directly; the tsx boot files stay out of dist/.
    expect(existsSync(join(dist, 'adapters', 'merchant', 'pkcs12-worker.js'))).toBe(true);
    expect(existsSync(join(dist, 'adapters', 'merchant', 'pkcs12-worker-boot.mjs'))).toBe(false);
  }, 240_000);

  it('--if-stale does nothing while the sources are unchanged, even when only their times change', async () => {
    const stamp = join(copy, 'dist', '.build-stamp.json');
    const before = statSync(stamp).mtimeMs;
    const main = join(copy, 'src', 'main.ts');
    const text = readFileSync(main);
    rmSync(main);
    appendFileSync(main, text); // same content, new file time
    const again = await build('--if-stale');
    expect(again).toEqual({ code: 0, out: '' });
    expect(statSync(stamp).mtimeMs).toBe(before);
  });

  it('--if-stale rebuilds after an edit', async () => {
    appendFileSync(join(copy, 'src', 'main.ts'), '\nexport const buildProbe = 42;\n');
    const again = await build('--if-stale');
    expect(again.code, again.out).toBe(0);
    expect(again.out).toContain('building dist/');
    expect(readFileSync(join(copy, 'dist', 'main.js'), 'utf8')).toContain('buildProbe = 42');
  }, 240_000);

  it('a failed build says so and keeps the previous dist/', async () => {
    appendFileSync(join(copy, 'src', 'main.ts'), '\nexport const broken: number = "not a number";\n');
    const failed = await build('--if-stale');
    expect(failed.code).toBe(1);
    expect(failed.out).toContain('dist/ is unchanged');
    expect(readFileSync(join(copy, 'dist', 'main.js'), 'utf8')).toContain('buildProbe = 42');
    expect(readdirSync(copy).filter((f) => f.startsWith('dist.'))).toEqual([]);
  }, 240_000);
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
});
