#!/usr/bin/env node
// Builds dist/ from src/: TypeScript compiled by `tsc -p tsconfig.build.json`, and every file under
// src/ that is not TypeScript (the admin page, …) copied beside the JavaScript, so code that finds
// its files relative to its own module works the same from src/ (tsx, tests) and dist/ (npm start,
// the installed `kasa`). ADR 0800.
//
//   node scripts/build.mjs             build now
//   node scripts/build.mjs --if-stale  build only when src/ changed since the last build
//                                      (`npm install`'s prepare step and `npm start` run this)
//
// "Changed" is decided by a SHA-256 over the build inputs' paths and contents, kept in
// dist/.build-stamp.json: a checkout that only touches file times does not rebuild, an edit does.
// In an installed package there is no src/: the shipped dist/ is used as it is.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const dist = join(root, 'dist');
const stampFile = join(dist, '.build-stamp.json');
const CONFIGS = ['tsconfig.json', 'tsconfig.build.json'];

/** Files that never go into dist/ (tests and test-only helpers; tsconfig.build.json excludes them too). */
const isTestOnly = (path) =>
  /\.test\.ts$/.test(path) ||
  /\.contract\.ts$/.test(path) ||
  path.endsWith(`core${sep}documents${sep}test-support.ts`);

function listFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(path));
    else if (entry.isFile()) out.push(path);
  }
  return out.sort();
}

/** SHA-256 over every build input (path and content), in a fixed order. */
function inputsHash() {
  const hash = createHash('sha256');
  const files = [...listFiles(src).filter((f) => !isTestOnly(f)), ...CONFIGS.map((c) => join(root, c))];
  for (const file of files) {
    hash.update(relative(root, file).split(sep).join('/'));
    hash.update('\0');
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

function readStamp() {
  try {
    return JSON.parse(readFileSync(stampFile, 'utf8'));
  } catch {
    return undefined;
  }
}

function build(hash) {
  let tsc;
  try {
    tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    console.error(
      'kasa: dist/ must be built, but TypeScript is not installed here. Run `npm install` (with dev dependencies) in the kasa folder.',
    );
    process.exit(1);
  }
  // Built beside dist/ and swapped in whole, so a failed build leaves the previous dist/ untouched.
  const out = join(root, `dist.build-${process.pid}`);
  rmSync(out, { recursive: true, force: true });
  const run = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', out], {
    cwd: root,
    stdio: 'inherit',
  });
  if (run.status !== 0) {
    rmSync(out, { recursive: true, force: true });
    console.error('kasa: the TypeScript build failed (see above); dist/ is unchanged.');
    process.exit(1);
  }
  for (const file of listFiles(src)) {
    // `*-boot.mjs` files load TypeScript through tsx for a worker thread: compiled code does not need them.
    if (file.endsWith('.ts') || file.endsWith('-boot.mjs')) continue;
    const target = join(out, relative(src, file));
    mkdirSync(dirname(target), { recursive: true });
    cpSync(file, target);
  }
  writeFileSync(
    join(out, '.build-stamp.json'),
    `${JSON.stringify({ inputsSha256: hash, builtAt: new Date().toISOString() }, null, 2)}\n`,
  );
  const old = join(root, `dist.old-${process.pid}`);
  if (existsSync(dist)) renameSync(dist, old);
  renameSync(out, dist);
  rmSync(old, { recursive: true, force: true });
}

const ifStale = process.argv.includes('--if-stale');
if (!existsSync(src)) {
  // An installed package: dist/ came with it.
  if (!existsSync(join(dist, 'main.js'))) {
    console.error('kasa: neither src/ nor dist/main.js is here; reinstall the package.');
    process.exit(1);
  }
  process.exit(0);
}
const fresh = () => existsSync(join(dist, 'main.js')) && readStamp()?.inputsSha256 === inputsHash();
if (ifStale && fresh()) process.exit(0);

// One build at a time per checkout (`npm start` while `npm install` or `npm pack` builds, or two
// test files at once): the others wait for it and then find dist/ fresh instead of racing it.
const lockDir = join(root, 'dist.lock');
const owner = join(lockDir, 'pid');
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
};
const waitSlice = new Int32Array(new SharedArrayBuffer(4));
const deadline = Date.now() + 10 * 60_000;
for (;;) {
  try {
    mkdirSync(lockDir);
    // Released however this process ends (process.exit included).
    process.on('exit', () => rmSync(lockDir, { recursive: true, force: true }));
    writeFileSync(owner, String(process.pid));
    break;
  } catch (e) {
    if (e.code !== 'EEXIST') throw e;
    let pid = Number.NaN;
    try {
      pid = Number(readFileSync(owner, 'utf8'));
    } catch {}
    // A lock left by a build that died (or one that has not written its pid yet: wait a moment).
    if (Number.isInteger(pid) && pid > 0 && !alive(pid)) rmSync(lockDir, { recursive: true, force: true });
    if (Date.now() > deadline) {
      console.error(`kasa: another build holds ${lockDir}; remove it if no build runs.`);
      process.exit(1);
    }
    Atomics.wait(waitSlice, 0, 0, 200);
  }
}
const hash = inputsHash();
// Another build may have finished while this one waited.
if (ifStale && existsSync(join(dist, 'main.js')) && readStamp()?.inputsSha256 === hash) process.exit(0);
const started = Date.now();
process.stderr.write('kasa: building dist/ from src/ … ');
build(hash);
process.stderr.write(`done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
