import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProcess } from '../support/run-process.js';
import { type ServeChild, startServeChild } from '../support/serve-child.js';
import { repoRoot } from '../support/shared-fixtures.js';

/**
 * The POS examples in examples/ (capability 14) run against demo registers: one with the virtual
 * printer (the happy path), one with `--printer none`, where every original fails to print, to
 * walk the 507/508 loop. Each toolchain runs where it exists, with a named skip otherwise; CI
 * (.ci/run) installs curl, jq and Python's requests.
 */
const TOKEN = 'examples-token-1';
const python = process.env.KASA_PYTHON ?? 'python3';
const has = (cmd: string, args: string[]) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
const hasCurl = has('curl', ['--version']) && has('jq', ['--version']);
const hasPython = has(python, ['-c', 'import requests']);
const hasDotnet = has('dotnet', ['--version']);

const dir = mkdtempSync(join(tmpdir(), 'kasa-examples-'));
let printing: ServeChild;
/** Accepts every connection and closes it at once: something listens, but kasa does not answer. */
let silent: Server;
beforeAll(async () => {
  silent = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  printing = await startServeChild([
    '--port',
    '0',
    '--data-dir',
    join(dir, 'printing'),
    '--token',
    TOKEN,
    '--log-level',
    'warn',
  ]);
}, 90_000);
afterAll(async () => {
  await printing?.stop();
  await new Promise((resolve) => silent?.close(resolve));
});

/** A register, a bare URL, or a URL with the token to send (a wrong one, say). */
type Target = ServeChild | string | { url: string; token: string };
type Run = (
  example: string,
  target: Target,
  ...args: string[]
) => Promise<{ code: number | null; out: string }>;

function runner(command: (example: string, args: string[]) => [string, string[]]): Run {
  return async (example, target, ...args) => {
    const url = typeof target === 'string' ? target : target.url;
    const token =
      target === printing ? TOKEN : typeof target === 'object' && 'token' in target ? target.token : '';
    const [cmd, argv] = command(example, args);
    const r = await runProcess(cmd, argv, {
      cwd: repoRoot,
      timeoutMs: 120_000,
      env: { ...process.env, KASA_URL: url, KASA_TOKEN: token },
    });
    return { code: r.code, out: `${r.stdout}${r.stderr}` };
  };
}

/** The same walk for every language: store, reprint, offline report, the 507/508 loop. */
function walk(run: Run, names: { store: string; reprint: string; offline: string }) {
  // A register of its own whose every original fails to print: the 507/508 loop from the start.
  let failing: ServeChild;
  beforeAll(async () => {
    failing = await startServeChild([
      '--port',
      '0',
      '--data-dir',
      join(dir, names.store),
      '--printer',
      'none',
      '--log-level',
      'warn',
    ]);
  }, 90_000);
  afterAll(async () => {
    await failing?.stop();
  });

  it('store: registered, printed, with its number, OKP and SFS receipt id', async () => {
    const r = await run(names.store, printing);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/^stored \d{6}\/\d+ id \d+ okp [0-9a-f-]+ uuid O-[0-9A-F]+$/m);
  });

  it('reprint: nothing pending after a printed sale; a copy prints', async () => {
    expect(await run(names.reprint, printing)).toMatchObject({
      code: 1,
      out: expect.stringContaining('nothing waits'),
    });
    expect(await run(names.reprint, printing, 'copy')).toMatchObject({ code: 0, out: 'printed\n' });
  });

  it('offline report: a document issued offline waits, and is sent on demand', async () => {
    // The embedded SFS simulator answers the next request with an error page: issued offline.
    const sim = /SFS embedded simulator (http:\/\/[^/\s]+)/.exec(printing.stdout())![1]!;
    const fault = await fetch(`${sim}/__sim/fault`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'http-error', count: 1 }),
    });
    expect(fault.status).toBe(200);
    const stored = await run(names.store, printing);
    expect(stored.code, stored.out).toBe(0);
    expect(stored.out).toContain('uuid offline: sent later');
    const waiting = await run(names.offline, printing);
    expect(waiting.code, waiting.out).toBe(0);
    expect(waiting.out).toContain('waiting: 1 document(s), 0 location(s)');
    expect(waiting.out).toMatch(/^ {2}\d{6}\/\d+ 5\.15 created .+ offline$/m);
    const sent = await run(names.offline, printing, 'send');
    expect(sent.code, sent.out).toBe(0);
    expect(sent.out).toContain('sent now: 1 document(s), 0 location(s)');
    expect(sent.out).toContain('waiting: 0 document(s), 0 location(s)');
  });

  it('paper out: 507 on the sale, 508 on the next, reprint reports the printer until it prints', async () => {
    const first = await run(names.store, failing);
    expect(first.code, first.out).toBe(3);
    expect(first.out).toMatch(/NOT printed \(printer code 104\)/);
    const next = await run(names.store, failing);
    expect(next).toMatchObject({ code: 3, out: expect.stringContaining('last document is not printed') });
    expect(await run(names.reprint, failing)).toMatchObject({
      code: 3,
      out: expect.stringContaining('printer still fails: 104'),
    });
  });

  // examples/README.md: exit 2 when kasa is not there or not ready, 1 when it refused.
  it('no register listening: the reachability check says so, exit 2 from every example', async () => {
    const r = await run(names.store, 'http://127.0.0.1:9');
    expect(r.code, r.out).toBe(2);
    expect(r.out).toContain('nothing listens');
    for (const [example, ...args] of [[names.reprint], [names.reprint, 'copy'], [names.offline, 'send']]) {
      const other = await run(example!, 'http://127.0.0.1:9', ...args);
      expect(other.code, `${example} ${args.join(' ')}: ${other.out}`).toBe(2);
      expect(other.out).toContain('does not answer');
    }
  });

  it('a port that accepts connections but never answers HTTP: exit 2, not a crash', async () => {
    const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
    for (const [example, ...args] of [[names.store], [names.reprint], [names.offline]]) {
      const r = await run(example!, url, ...args);
      expect(r.code, `${example}: ${r.out}`).toBe(2);
      expect(r.out).toContain('does not answer');
    }
  });

  it('a wrong token: refused, exit 1, with the reason kasa gave', async () => {
    const r = await run(names.store, { url: printing.url, token: 'not-the-token' });
    expect(r.code, r.out).toBe(1);
    expect(r.out).toMatch(/^refused: -?\d+ Missing or wrong token/m);
  });
}

const named = (ok: boolean, name: string, why: string) => (ok ? name : `${name} (skipped: ${why})`);

describe.skipIf(!hasCurl)(named(hasCurl, 'curl examples', 'curl or jq missing'), () => {
  walk(
    runner((example, args) => ['bash', [join('examples', 'curl', example), ...args]]),
    { store: 'store.sh', reprint: 'reprint.sh', offline: 'offline-report.sh' },
  );
});

describe.skipIf(!hasPython)(named(hasPython, 'Python examples', `${python} cannot import requests`), () => {
  walk(
    runner((example, args) => [python, [join('examples', 'python', example), ...args]]),
    { store: 'store.py', reprint: 'reprint.py', offline: 'offline_report.py' },
  );
});

describe.skipIf(!hasDotnet)(named(hasDotnet, 'C# examples', 'no dotnet SDK on this machine'), () => {
  const project = join('examples', 'csharp');
  beforeAll(async () => {
    const build = await runProcess('dotnet', ['build', project, '-v', 'q'], {
      cwd: repoRoot,
      timeoutMs: 300_000,
    });
    expect(build.code, `${build.stdout}${build.stderr}`).toBe(0);
  }, 320_000);
  walk(
    runner((example, args) => [
      'dotnet',
      ['run', '--no-build', '--project', project, '--', example, ...args],
    ]),
    { store: 'store', reprint: 'reprint', offline: 'offline' },
  );
});
