import { spawn } from 'node:child_process';
import { firstAnswer } from '../lib/http-client.js';
import { freePort, kasaCommand, kasaRoot, type ServeProcess, startServe } from '../lib/serve-process.js';
import { msSince } from '../lib/stats.js';

export interface StartupRun {
  /** Spawn of `kasa serve` until its first answered `POST /api/document/get {}` (resultCode 0), ms. */
  firstAnswerMs: number;
  /** RSS right after that answer, MB. */
  rssMB: number;
  serve: ServeProcess;
}

/**
 * Starts `kasa serve` on a stopped register and knocks on its port from the moment it is spawned,
 * as a POS waiting for the register does; the first answered look-up of the last document counts
 * (a refusal or an error does not).
 */
export async function measureStartup(dataDir: string, extraArgs: string[]): Promise<StartupRun> {
  const port = await freePort();
  const t0 = process.hrtime.bigint();
  const starting = startServe(dataDir, extraArgs, { port, timeoutMs: 300_000 });
  starting.catch(() => undefined);
  // A refusal (e.g. 508 while the start-up check runs) is knocked past like a closed port: the
  // first answer with resultCode 0 counts; none within the limit fails the run.
  let firstAnswerMs: number;
  try {
    await firstAnswer(
      `http://127.0.0.1:${port}`,
      '/api/document/get',
      {},
      300_000,
      (answer) => answer.body?.resultCode === 0,
    );
    firstAnswerMs = msSince(t0);
  } catch (e) {
    await starting.then((serve) => serve.stop()).catch(() => undefined);
    throw e;
  }
  const serve = await starting;
  return { firstAnswerMs, rssMB: serve.rss().rssMB, serve };
}

/**
 * What loading kasa's code costs before it does anything: a process that imports the whole module
 * graph of `kasa` (src/cli/program, as `kasa serve` does) the way `kasa serve` is started, then
 * exits. Time from spawn to exit, ms, and its RSS at the end, MB — the part of start-up that does
 * not depend on the data.
 */
export async function measureCodeLoad(): Promise<{ ms: number; rssMB: number }> {
  const { argv } = kasaCommand();
  const entry = argv.at(-1)!.replace(/main\.(ts|js)$/, 'cli/program.$1');
  const loader = argv.slice(0, -1);
  const script = `await import(${JSON.stringify(`file://${entry}`)}); const s = (await import('node:fs')).readFileSync('/proc/self/status', 'utf8'); console.log(/VmRSS:\\s+(\\d+)/.exec(s)[1]);`;
  const t0 = process.hrtime.bigint();
  const child = spawn(process.execPath, [...loader, '--input-type=module', '-e', script], {
    cwd: kasaRoot(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (out += String(d)));
  const code = await new Promise((resolve) => child.once('exit', resolve));
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const kb = Number(/^(\d+)\s*$/m.exec(out)?.[1]);
  if (code !== 0 || !Number.isFinite(kb)) throw new Error(`loading kasa's modules failed (${code}):\n${out}`);
  return { ms, rssMB: kb / 1024 };
}
