import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The checkout whose `kasa serve` is measured: this one, or `KASA_BENCH_KASA_ROOT` (another
 * checkout, e.g. the commit before a change, measured by the same bench in the same run).
 */
export function kasaRoot(): string {
  return process.env.KASA_BENCH_KASA_ROOT ?? repoRoot;
}

/** How `kasa serve` is started: the compiled entry when there is one, else the sources through tsx. */
export function kasaCommand(): { argv: string[]; how: string } {
  const root = kasaRoot();
  const where = root === repoRoot ? '' : ` in ${root}`;
  for (const built of ['dist/src/main.js', 'dist/main.js']) {
    const path = join(root, built);
    if (existsSync(path)) return { argv: [path], how: `node ${built}${where}` };
  }
  return {
    argv: ['--import', 'tsx', join(root, 'src', 'main.ts')],
    how: `node --import tsx src/main.ts${where}`,
  };
}

/**
 * Makes sure the `kasa serve` the bench starts is built from the sources it seeds and renders
 * with: when the measured checkout runs from a compiled entry and has a build script, runs
 * `node scripts/build.mjs --if-stale` there (a no-op when dist/ matches src/). Throws — the bench
 * refuses to measure — when that build fails, or when a checkout with src/ has a dist/ but no build
 * script to tell whether it is stale.
 */
export function ensureFreshBuild(log: (line: string) => void): void {
  const root = kasaRoot();
  if (!existsSync(join(root, 'src'))) return;
  const script = join(root, 'scripts', 'build.mjs');
  const hasDist = ['dist/src/main.js', 'dist/main.js'].some((p) => existsSync(join(root, p)));
  if (!existsSync(script)) {
    if (hasDist)
      throw new Error(
        `${root} has dist/ but no scripts/build.mjs to tell whether it is older than src/: remove dist/ (the sources then run through tsx) or build it`,
      );
    return;
  }
  const t0 = Date.now();
  const built = spawnSync(process.execPath, [script, '--if-stale'], { cwd: root, encoding: 'utf8' });
  if (built.status !== 0) {
    throw new Error(
      `node scripts/build.mjs --if-stale failed in ${root} (exit ${built.status}); kasa serve would run a stale dist/:\n${built.stdout}${built.stderr}`,
    );
  }
  if (Date.now() - t0 > 2000) log(`built dist/ from src/ (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
}

/** A free loopback port (bound and released), so a client can knock before kasa prints it. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Resident set size of a process (Linux /proc), MB; `peak` is VmHWM. */
export function rssOf(pid: number): { rssMB: number; peakMB: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rssMB: kb('VmRSS') / 1024, peakMB: kb('VmHWM') / 1024 };
}

/**
 * CPU time a process has used so far (user + system, all its threads; Linux /proc), ms. Unlike
 * wall time it hardly depends on what else the machine runs: the work a document costs.
 */
export function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of stat (utime, stime) in clock ticks; 100 per second on Linux.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

export interface ServeProcess {
  url: string;
  child: ChildProcess;
  pid: number;
  output(): string;
  rss(): { rssMB: number; peakMB: number };
  /** CPU time used so far, ms (see {@link cpuMsOf}). */
  cpuMs(): number;
  stop(): Promise<void>;
}

/**
 * Starts `kasa serve` as its own process on a port chosen beforehand (`--port`), quiet logs,
 * `extraArgs` after. Resolves once it printed that it listens; rejects with its output when it
 * exits first or does not start within `timeoutMs`.
 */
export async function startServe(
  dataDir: string,
  extraArgs: string[] = [],
  options: { port?: number; timeoutMs?: number; nodeArgs?: string[] } = {},
): Promise<ServeProcess> {
  const port = options.port ?? (await freePort());
  const { argv } = kasaCommand();
  const child = spawn(
    process.execPath,
    [
      ...(options.nodeArgs ?? []),
      ...argv,
      'serve',
      '--port',
      String(port),
      '--data-dir',
      dataDir,
      '--log-level',
      'warn',
      // The rollback marks (ADR 0118) beside the bench's data, never in the user's state dir.
      '--mark-dir',
      `${dataDir}-marks`,
      ...extraArgs,
    ],
    { cwd: kasaRoot(), stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env } },
  );
  let out = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (out += String(d)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`kasa serve did not start in ${options.timeoutMs ?? 120_000} ms:\n${out}`));
    }, options.timeoutMs ?? 120_000);
    const onData = () => {
      if (!/kasa listening on/.test(out)) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      resolve();
    };
    child.stdout!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`kasa serve exited with ${code} before listening:\n${out}`));
    });
  });
  return {
    url,
    child,
    pid: child.pid!,
    output: () => out,
    rss: () => rssOf(child.pid!),
    cpuMs: () => cpuMsOf(child.pid!),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
