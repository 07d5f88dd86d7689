import { firstAnswer } from '../lib/http-client.js';
import { freePort, type ServeProcess, startServe } from '../lib/serve-process.js';
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
  const answer = await firstAnswer(`http://127.0.0.1:${port}`, '/api/document/get', {}, 300_000);
  const firstAnswerMs = msSince(t0);
  const serve = await starting;
  if (answer.body?.resultCode !== 0) {
    await serve.stop();
    throw new Error(`first answer after start: ${JSON.stringify(answer.body).slice(0, 300)}`);
  }
  return { firstAnswerMs, rssMB: serve.rss().rssMB, serve };
}
