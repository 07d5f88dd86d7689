import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pd } from '../support/kasa-harness.js';
import { type ListeningProcess, processTree, startListening } from '../support/listening-process.js';
import { runProcess } from '../support/run-process.js';
import { repoRoot } from '../support/shared-fixtures.js';

/**
 * The packaged install, as docs/install.md tells a shop to do it (ADR 0801): `npm pack`, unpack the
 * tarball into a clean prefix, `npm install --omit=dev` in it (the shipped npm-shrinkwrap.json
 * pins the tested tree), a link to its bin/kasa.js puts `kasa` on the prefix's PATH, and
 * `kasa serve` runs the compiled JavaScript from it.
 *
 * No network: npm runs with --offline from the local npm cache (the checkout's own `npm install`
 * filled it), and better-sqlite3's native binary comes from the checkout as a local prebuild
 * instead of a download or a minute-long compile.
 */
const work = mkdtempSync(join(tmpdir(), 'kasa-packed-'));
const prefix = join(work, 'prefix');
const pkgDir = join(prefix, 'lib', 'kasa');
const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
let installLog = '';
let serve: ListeningProcess | undefined;

async function run(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<string> {
  const r = await runProcess(command, args, {
    cwd,
    env: { ...process.env, npm_config_update_notifier: 'false', ...env },
    timeoutMs: 240_000,
  });
  const output = `${r.stdout}${r.stderr}`;
  if (r.code !== 0) throw new Error(`${command} ${args.join(' ')} failed (${r.code}):\n${output}`);
  return output;
}

/** better-sqlite3's compiled binary from the checkout, laid out as prebuild-install expects it. */
async function localPrebuild(): Promise<Record<string, string>> {
  const bs = join(repoRoot, 'node_modules', 'better-sqlite3');
  const { version } = JSON.parse(readFileSync(join(bs, 'package.json'), 'utf8')) as { version: string };
  const dir = join(work, 'prebuilds');
  mkdirSync(dir, { recursive: true });
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  await run('tar', ['-czf', join(dir, name), '-C', bs, 'build/Release/better_sqlite3.node'], repoRoot);
  return { npm_config_better_sqlite3_local_prebuilds: dir };
}

beforeAll(async () => {
  await run('npm', ['pack', '--pack-destination', work], repoRoot);
  const tarball = join(work, readdirSync(work).find((f) => f.endsWith('.tgz'))!);
  mkdirSync(pkgDir, { recursive: true });
  await run('tar', ['-xzf', tarball, '-C', pkgDir, '--strip-components=1'], work);
  installLog = await run(
    'npm',
    ['install', '--omit=dev', '--offline', '--no-audit', '--no-fund'],
    pkgDir,
    await localPrebuild(),
  );
  // docs/install.md: the command goes on the PATH as a link to the package's bin/kasa.js.
  mkdirSync(join(prefix, 'bin'));
  symlinkSync(join('..', 'lib', 'kasa', 'bin', 'kasa.js'), join(prefix, 'bin', 'kasa'));
  const dataDir = join(work, 'data');
  serve = await startListening(
    join(prefix, 'bin', 'kasa'),
    ['serve', '--port', '0', '--data-dir', dataDir, '--log-level', 'warn'],
    // A PATH without the checkout's tools: the installed package must stand on its own.
    { cwd: work, env: { PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}` } },
  );
}, 600_000);

afterAll(async () => {
  if (serve) expect(await serve.stop()).toBe(0);
  rmSync(work, { recursive: true, force: true });
});

describe('the packed tarball installed into a clean prefix', () => {
  it('ships compiled JavaScript, the admin page, the fonts and the pinned tree, but no TypeScript sources', () => {
    for (const file of [
      'dist/main.js',
      'dist/web/admin/index.html',
      'dist/web/admin/admin.js',
      'assets/fonts/DejaVuSansMono.ttf',
      'npm-shrinkwrap.json',
    ]) {
      expect(existsSync(join(pkgDir, file)), file).toBe(true);
    }
    expect(existsSync(join(pkgDir, 'src'))).toBe(false);
    expect(existsSync(join(pkgDir, 'dist', 'main.test.js'))).toBe(false);
  });

  it('installs offline without an EBADENGINE warning and without the dev tools (tsx, typescript, vitest)', () => {
    expect(installLog).not.toContain('EBADENGINE');
    for (const dev of ['tsx', 'typescript', 'vitest', '@biomejs/biome']) {
      expect(existsSync(join(pkgDir, 'node_modules', dev)), dev).toBe(false);
    }
    // The overrides that keep the tree on Node 20 engines (ADR 0801) reached the installed tree.
    const version = (p: string) =>
      (
        JSON.parse(readFileSync(join(pkgDir, 'node_modules', p, 'package.json'), 'utf8')) as {
          version: string;
        }
      ).version;
    expect(version('light-my-request/node_modules/cookie')).toBe('1.1.1');
    expect(version('@fastify/static/node_modules/content-disposition')).toBe('2.0.1');
  });

  it('`kasa serve --port 0` from the prefix answers /api/version from dist/', async () => {
    const res = await fetch(`${serve!.url}/api/version`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ resultCode: 0, product: 'kasa', version: pkg.version });
    const tree = processTree(serve!.child.pid!).join('\n');
    expect(tree).toContain(join(prefix, 'bin', 'kasa'));
    expect(tree).not.toContain('tsx');
    // An installed tarball has no .git: the first line names the version, no commit.
    expect(serve!.stdout().split('\n')[0]).toBe(
      `kasa ${pkg.version}, data dir ${join(work, 'data')} (from --data-dir)`,
    );
  });

  it('finds its non-TypeScript files from dist/: the admin page and the receipt fonts', async () => {
    const admin = await fetch(`${serve!.url}/admin/`);
    expect(admin.status).toBe(200);
    expect(await admin.text()).toContain('/admin/admin.js');
    const script = await fetch(`${serve!.url}/admin/admin.js`);
    expect(script.status).toBe(200);
    expect(await script.text()).toContain('/api/status/get');
    const res = await fetch(`${serve!.url}/api/document/store`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(pd({ electronicReceipt: true })),
    });
    const body = (await res.json()) as { resultCode: number; document: { electronicReceipt?: string } };
    expect(body.resultCode).toBe(0);
    const png = Buffer.from(body.document.electronicReceipt ?? '', 'base64');
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  });
});
